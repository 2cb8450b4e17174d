package io.weir.internal.savepoint;

import io.weir.common.internal.Deadline;
import io.weir.common.internal.KafkaCalls;
import io.weir.config.WeirConfig;
import io.weir.errors.ClusterException;
import io.weir.internal.config.InternalTopic;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicReference;
import java.util.zip.CRC32;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.Config;
import org.apache.kafka.clients.admin.ConfigEntry;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.config.ConfigResource;

/**
 * The complete savepoints of an application, read from its savepoint topic: listing reads the
 * catalog partition (manifests and deletion marks) only; {@link #read} reads a savepoint's data
 * and checks every store's entry count and CRC-32 against its manifest; {@link #delete} tombstones
 * a savepoint's data, which compaction then removes.
 */
public final class SavepointCatalog {

    /** Where {@link #read} delivers a savepoint's entries, store by store. */
    public interface EntrySink {
        void entry(Manifest.TaskEntry task, ControlMessage.StoreCopy store, byte[] key, byte[] value);
    }

    private static final Duration POLL = Duration.ofMillis(500);
    private static final Duration READ_TIMEOUT = Duration.ofMinutes(10);

    private final WeirConfig config;
    private final String topic;

    /** The savepoints of {@code config}'s application. */
    public SavepointCatalog(WeirConfig config) {
        this.config = config;
        this.topic = InternalTopic.SAVEPOINTS.of(config.applicationId());
    }

    /** The complete, not deleted savepoints, oldest first; empty if the topic does not exist. */
    public List<Manifest> list() {
        Map<String, Manifest> manifests = new LinkedHashMap<>();
        TopicPartition catalog = new TopicPartition(topic, SavepointTopics.CATALOG_PARTITION);
        try (KafkaConsumer<byte[], byte[]> consumer = SavepointClients.consumer(config, "savepoint-catalog")) {
            if (consumer.partitionsFor(topic, Duration.ofSeconds(30)).isEmpty()) {
                return List.of();
            }
            readAll(consumer, catalog, 0, r -> {
                String[] key = SavepointTopics.parseKey(r.key());
                if (key.length == 2 && key[1].equals("manifest") && r.value() == null) {
                    manifests.remove(key[0]); // a tombstone: no Weir writes one today, but a person might
                } else if (key.length == 2 && key[1].equals("manifest")) {
                    manifests.put(key[0], Manifest.decode(r.value()));
                } else if (key.length == 2 && key[1].equals("deleted")) {
                    manifests.remove(key[0]);
                }
            });
        }
        return new ArrayList<>(manifests.values());
    }

    public Optional<Manifest> find(String id) {
        return list().stream().filter(m -> m.id().equals(id)).findFirst();
    }

    /**
     * What a deletion did.
     *
     * @param tombstones  data records tombstoned (every chunk of every store)
     * @param bytes       key and value bytes of the entries they held
     * @param reclaimed   whether the topic is compacted, so the broker's log cleaner removes them
     *                    (once the segments holding them are closed: {@code segment.ms});
     *                    false for a topic created with {@code cleanup.policy=delete} by an earlier Weir
     * @param topicPolicy the topic's {@code cleanup.policy}
     */
    public record Deletion(long tombstones, long bytes, boolean reclaimed, String topicPolicy) {}

    /**
     * Deletes a savepoint: writes a tombstone for every data record it has (the keys follow from its
     * manifest: {@code <id>/<task>/<store>/<seq>}), then marks it deleted in the catalog, after which
     * it is no longer listed or restorable. In a compacted savepoints topic the log cleaner then
     * removes its data. Its manifest stays (a few KB; readers of every version know the deletion
     * mark, while a tombstone on the catalog would break older ones).
     *
     * @throws IllegalArgumentException if there is no such savepoint
     */
    public Deletion delete(String id) {
        Manifest manifest = find(id).orElseThrow(
                        () -> new IllegalArgumentException("no savepoint " + id + " of " + config.applicationId()));
        String policy = cleanupPolicy();
        long tombstones = 0;
        try (KafkaProducer<byte[], byte[]> producer = SavepointClients.producer(config, "savepoint-catalog")) {
            AtomicReference<Exception> failure = new AtomicReference<>();
            for (Manifest.TaskEntry task : manifest.tasks()) {
                for (ControlMessage.StoreCopy store : task.stores()) {
                    for (int seq = 0; seq < store.chunks(); seq++) {
                        producer.send(
                                new ProducerRecord<>(
                                        topic,
                                        SavepointTopics.DATA_PARTITION,
                                        SavepointTopics.dataKey(id, task.task(), store.name(), seq),
                                        null),
                                (md, e) -> {
                                    if (e != null) {
                                        failure.compareAndSet(null, e);
                                    }
                                });
                        tombstones++;
                    }
                }
            }
            producer.flush();
            if (failure.get() != null) {
                // Not marked deleted: it stays listed, so the deletion can be run again.
                throw new ClusterException(
                        "writing the tombstones of savepoint " + id + " to " + topic + " failed: " + failure.get(),
                        failure.get());
            }
            KafkaCalls.get(
                    producer.send(new ProducerRecord<>(
                            topic, SavepointTopics.CATALOG_PARTITION, SavepointTopics.deletedKey(id), new byte[0])),
                    SavepointClients.SEND_TIMEOUT,
                    "delete savepoint " + id);
        }
        return new Deletion(tombstones, manifest.bytes(), policy.contains("compact"), policy);
    }

    /** The savepoints topic's {@code cleanup.policy}, as the broker reports it. */
    private String cleanupPolicy() {
        ConfigResource resource = new ConfigResource(ConfigResource.Type.TOPIC, topic);
        try (Admin admin = SavepointClients.admin(config, "savepoint-catalog")) {
            Config configs = KafkaCalls.get(
                            admin.describeConfigs(List.of(resource)).all(),
                            Duration.ofSeconds(30),
                            "describe the topic " + topic)
                    .get(resource);
            ConfigEntry policy = configs.get("cleanup.policy");
            return policy == null ? "delete" : policy.value();
        }
    }

    /**
     * Reads every entry of the savepoint, store by store in key order, and checks each store's count
     * and CRC-32 against the manifest.
     *
     * @throws IllegalStateException if data is missing or does not match its checksum
     */
    public void read(Manifest manifest, EntrySink sink) {
        TopicPartition data = new TopicPartition(topic, SavepointTopics.DATA_PARTITION);
        try (KafkaConsumer<byte[], byte[]> consumer = SavepointClients.consumer(config, "savepoint-read")) {
            consumer.assign(List.of(data));
            for (Manifest.TaskEntry task : manifest.tasks()) {
                for (ControlMessage.StoreCopy store : task.stores()) {
                    readStore(consumer, data, manifest.id(), task, store, sink);
                }
            }
        }
    }

    private void readStore(
            KafkaConsumer<byte[], byte[]> consumer,
            TopicPartition data,
            String id,
            Manifest.TaskEntry task,
            ControlMessage.StoreCopy store,
            EntrySink sink) {
        String prefix = id + "/" + task.task() + "/" + store.name() + "/";
        Map<Integer, byte[]> chunks = new HashMap<>();
        long[] read = {0};
        CRC32 crc = new CRC32();
        int[] next = {0};
        consumer.seek(data, store.firstOffset());
        Deadline deadline = Deadline.after(READ_TIMEOUT);
        // Chunks of one store come in order, interleaved with other stores' (several writers).
        while (next[0] < store.chunks()) {
            if (consumer.position(data) > store.lastOffset() || deadline.expired()) {
                throw new IllegalStateException("savepoint " + id + ": data of store " + store.name() + " of task "
                        + task.task() + " is incomplete (" + next[0] + " of " + store.chunks() + " chunks found)");
            }
            for (ConsumerRecord<byte[], byte[]> r : consumer.poll(POLL)) {
                if (r.offset() > store.lastOffset() || r.key() == null) {
                    continue;
                }
                String key = new String(r.key(), java.nio.charset.StandardCharsets.UTF_8);
                if (!key.startsWith(prefix)) {
                    continue;
                }
                chunks.put(Integer.parseInt(key.substring(prefix.length())), r.value());
                while (chunks.containsKey(next[0])) {
                    byte[] chunk = chunks.remove(next[0]++);
                    read[0] += Chunks.read(chunk, crc, (k, v) -> sink.entry(task, store, k, v));
                }
            }
        }
        if (read[0] != store.records() || crc.getValue() != store.crc32()) {
            throw new IllegalStateException("savepoint " + id + ": store " + store.name() + " of task " + task.task()
                    + " does not match its manifest (" + read[0] + " entries, CRC-32 " + crc.getValue()
                    + "; the manifest says " + store.records() + " and " + store.crc32() + ")");
        }
    }

    private static void readAll(
            KafkaConsumer<byte[], byte[]> consumer,
            TopicPartition tp,
            long from,
            java.util.function.Consumer<ConsumerRecord<byte[], byte[]>> each) {
        consumer.assign(List.of(tp));
        long end = consumer.endOffsets(List.of(tp)).get(tp);
        consumer.seek(tp, from);
        Deadline deadline = Deadline.after(READ_TIMEOUT);
        while (consumer.position(tp) < end) {
            if (deadline.expired()) {
                throw new ClusterException("timed out reading " + tp);
            }
            consumer.poll(POLL).forEach(each);
        }
    }
}
