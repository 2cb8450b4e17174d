package io.weir.testkit;

import io.weir.common.KeyValue;
import io.weir.common.internal.Deadline;
import io.weir.common.internal.KafkaCalls;
import io.weir.common.internal.Poll;
import io.weir.common.internal.TopicLeaders;
import io.weir.errors.ClusterException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.UUID;
import java.util.concurrent.Future;
import java.util.function.Predicate;
import java.util.stream.Collectors;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.IsolationLevel;
import org.apache.kafka.common.PartitionInfo;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.TopicPartitionInfo;
import org.apache.kafka.common.errors.UnknownTopicOrPartitionException;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.Deserializer;
import org.apache.kafka.common.serialization.StringDeserializer;

/**
 * Blocking helpers to set up and check topics on any Kafka cluster, for tests, demos and
 * benchmarks: create and delete topics, produce and get acknowledged, read back from the start.
 *
 * <p>Guarantees: {@code createTopic} returns when every partition has a leader; {@code produce}
 * returns when every record is acknowledged by all in-sync replicas (idempotent producer,
 * {@code acks=all}); {@code read*} methods read every partition of a topic from its beginning with
 * {@code assign()} (no consumer group, nothing committed), return as soon as their condition holds
 * on the records read so far, and throw {@link AssertionError} with the number of records seen when
 * the deadline passes first. Reads are {@code read_committed} unless the name says otherwise. A
 * topic deleted while it is read fails the read within about a second, instead of at the deadline:
 * a consumer assigned to a deleted topic retries its fetches without pause and logs a warning for
 * each, hundreds of megabytes a minute.
 *
 * <p>A request the cluster refuses or does not answer within 30 s throws a
 * {@link ClusterException} naming it, with the cluster's error as its cause.
 *
 * <p>Thread-safe: every read uses its own short-lived consumer; the cached producer and
 * {@link Admin} are thread-safe Kafka clients. {@link #close()} closes the cached clients.
 */
public final class KafkaTestClient implements AutoCloseable {

    private static final Duration ADMIN_TIMEOUT = Duration.ofSeconds(30);
    private static final Duration POLL = Duration.ofMillis(100);
    /** How often a read that gets nothing checks that its topic still exists. */
    private static final Duration EXISTS_CHECK = Duration.ofSeconds(1);

    private final String bootstrapServers;
    /** Security settings every client of this one gets (empty on a plaintext cluster). */
    private final Map<String, String> security;

    private Admin admin;
    private KafkaProducer<byte[], byte[]> producer;

    private KafkaTestClient(String bootstrapServers, Map<String, String> security) {
        this.bootstrapServers = bootstrapServers;
        this.security = Map.copyOf(security);
    }

    /** A client for the cluster at {@code bootstrapServers}; connects lazily. */
    public static KafkaTestClient connect(String bootstrapServers) {
        return new KafkaTestClient(bootstrapServers, Map.of());
    }

    /**
     * A client for {@code cluster}, connecting with its {@link KafkaCluster#clientSettings()} (the
     * super user of a secured cluster); connects lazily.
     */
    public static KafkaTestClient connect(KafkaCluster cluster) {
        return new KafkaTestClient(cluster.bootstrapServers(), cluster.clientSettings());
    }

    public String bootstrapServers() {
        return bootstrapServers;
    }

    /** A cached {@link Admin} closed with this client; do not close it yourself. */
    public synchronized Admin admin() {
        if (admin == null) {
            admin = Admin.create(settings(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers)));
        }
        return admin;
    }

    // ---------------------------------------------------------------------------------- topics

    /** Creates a topic with the cluster's default replication factor and waits for its leaders. */
    public void createTopic(String name, int partitions) {
        createTopic(name, partitions, Map.of());
    }

    /** Creates a topic with topic-level {@code configs} (e.g. {@code cleanup.policy=compact}). */
    public void createTopic(String name, int partitions, Map<String, String> configs) {
        createTopics(List.of(new NewTopic(name, Optional.of(partitions), Optional.empty()).configs(configs)));
    }

    /** Creates topics (any replication factor) and waits until every partition's leader serves it. */
    public void createTopics(Collection<NewTopic> topics) {
        KafkaCalls.get(admin().createTopics(topics).all(), ADMIN_TIMEOUT, "create topics " + names(topics));
        // So that the first records sent find a leader that serves them: see TopicLeaders.
        TopicLeaders.await(admin(), topics.stream().map(NewTopic::name).collect(Collectors.toSet()), ADMIN_TIMEOUT);
    }

    /** Deletes a topic and waits until the cluster no longer lists it. */
    public void deleteTopic(String name) {
        try {
            KafkaCalls.get(admin().deleteTopics(List.of(name)).all(), ADMIN_TIMEOUT, "delete topic " + name);
        } catch (ClusterException e) {
            if (!(e.getCause() instanceof UnknownTopicOrPartitionException)) {
                throw e;
            }
        }
        Await.until(
                ADMIN_TIMEOUT,
                () -> "topic " + name + " gone",
                () -> !KafkaCalls.get(admin().listTopics().names(), Duration.ofSeconds(5), "list the topics")
                        .contains(name));
    }

    /** The partitions of {@code topic} in partition order, with leader, replicas and ISR. */
    public List<TopicPartitionInfo> describePartitions(String topic) {
        return KafkaCalls.get(
                        admin().describeTopics(List.of(topic)).allTopicNames(),
                        ADMIN_TIMEOUT,
                        "describe topic " + topic)
                .get(topic)
                .partitions();
    }

    /**
     * Per partition, the number of offsets in the log: end offset (high watermark) minus log start
     * offset. This counts transaction markers and aborted records too; read with
     * {@code read_committed} to count what an application sees.
     */
    public Map<Integer, Long> countPerPartition(String topic) {
        try (KafkaConsumer<byte[], byte[]> consumer =
                consumer(IsolationLevel.READ_UNCOMMITTED, new ByteArrayDeserializer(), new ByteArrayDeserializer())) {
            List<TopicPartition> partitions = partitions(consumer, topic, Deadline.after(ADMIN_TIMEOUT));
            Map<TopicPartition, Long> start = consumer.beginningOffsets(partitions, ADMIN_TIMEOUT);
            Map<TopicPartition, Long> end = consumer.endOffsets(partitions, ADMIN_TIMEOUT);
            Map<Integer, Long> counts = new TreeMap<>();
            for (TopicPartition tp : partitions) {
                counts.put(tp.partition(), end.get(tp) - start.get(tp));
            }
            return counts;
        }
    }

    // -------------------------------------------------------------------------------- producing

    /** Produces byte[] key/values to {@code topic} and returns when all are acknowledged. */
    public List<RecordMetadata> produce(String topic, List<KeyValue<byte[], byte[]>> records) {
        List<ProducerRecord<byte[], byte[]>> sends = new ArrayList<>(records.size());
        for (KeyValue<byte[], byte[]> kv : records) {
            sends.add(new ProducerRecord<>(topic, kv.key(), kv.value()));
        }
        return send(sends);
    }

    /** Produces UTF-8 String key/values to {@code topic} and returns when all are acknowledged. */
    public List<RecordMetadata> produceStrings(String topic, List<KeyValue<String, String>> records) {
        List<ProducerRecord<byte[], byte[]>> sends = new ArrayList<>(records.size());
        for (KeyValue<String, String> kv : records) {
            sends.add(new ProducerRecord<>(topic, utf8(kv.key()), utf8(kv.value())));
        }
        return send(sends);
    }

    /** Sends records (any topic, partition, timestamp, headers) and returns when all are acknowledged. */
    public List<RecordMetadata> send(List<ProducerRecord<byte[], byte[]>> records) {
        KafkaProducer<byte[], byte[]> p = producer();
        List<Future<RecordMetadata>> acks = new ArrayList<>(records.size());
        for (ProducerRecord<byte[], byte[]> record : records) {
            acks.add(p.send(record));
        }
        p.flush();
        List<RecordMetadata> result = new ArrayList<>(acks.size());
        for (Future<RecordMetadata> ack : acks) {
            result.add(KafkaCalls.get(ack, ADMIN_TIMEOUT, "produce"));
        }
        return result;
    }

    private synchronized KafkaProducer<byte[], byte[]> producer() {
        if (producer == null) {
            producer = new KafkaProducer<>(settings(Map.of(
                    ProducerConfig.BOOTSTRAP_SERVERS_CONFIG,
                    bootstrapServers,
                    ProducerConfig.ACKS_CONFIG,
                    "all",
                    ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG,
                    "true",
                    ProducerConfig.LINGER_MS_CONFIG,
                    "5",
                    ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG,
                    ByteArraySerializer.class.getName(),
                    ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG,
                    ByteArraySerializer.class.getName())));
        }
        return producer;
    }

    // --------------------------------------------------------------------------------- reading

    /** Reads committed records from the beginning until {@code condition} holds on all read so far. */
    public List<ConsumerRecord<byte[], byte[]>> readUntil(
            String topic, Predicate<List<ConsumerRecord<byte[], byte[]>>> condition, Duration timeout) {
        return readUntil(
                topic,
                new ByteArrayDeserializer(),
                new ByteArrayDeserializer(),
                IsolationLevel.READ_COMMITTED,
                condition,
                timeout);
    }

    /** Reads committed records from the beginning until at least {@code count} were read. */
    public List<ConsumerRecord<byte[], byte[]>> readAtLeast(String topic, int count, Duration timeout) {
        return readUntil(topic, atLeast(count), timeout);
    }

    /** Like {@link #readUntil(String, Predicate, Duration)} but also sees open and aborted transactions. */
    public List<ConsumerRecord<byte[], byte[]>> readUncommittedUntil(
            String topic, Predicate<List<ConsumerRecord<byte[], byte[]>>> condition, Duration timeout) {
        return readUntil(
                topic,
                new ByteArrayDeserializer(),
                new ByteArrayDeserializer(),
                IsolationLevel.READ_UNCOMMITTED,
                condition,
                timeout);
    }

    /** Like {@link #readAtLeast(String, int, Duration)} but {@code read_uncommitted}. */
    public List<ConsumerRecord<byte[], byte[]>> readUncommittedAtLeast(String topic, int count, Duration timeout) {
        return readUncommittedUntil(topic, atLeast(count), timeout);
    }

    /** {@link #readUntil(String, Predicate, Duration)} with UTF-8 String keys and values. */
    public List<ConsumerRecord<String, String>> readStringsUntil(
            String topic, Predicate<List<ConsumerRecord<String, String>>> condition, Duration timeout) {
        return readUntil(
                topic,
                new StringDeserializer(),
                new StringDeserializer(),
                IsolationLevel.READ_COMMITTED,
                condition,
                timeout);
    }

    /** {@link #readAtLeast(String, int, Duration)} with UTF-8 String keys and values. */
    public List<ConsumerRecord<String, String>> readStringsAtLeast(String topic, int count, Duration timeout) {
        return readStringsUntil(topic, atLeast(count), timeout);
    }

    /**
     * The general form: reads every partition of {@code topic} from its beginning with the given
     * deserializers and isolation level until {@code condition} holds on the records read so far
     * (checked after every poll, in arrival order: per partition in offset order).
     *
     * @throws AssertionError if the deadline passes first; the message says how many records
     *                        were seen per partition and shows the last few
     */
    public <K, V> List<ConsumerRecord<K, V>> readUntil(
            String topic,
            Deserializer<K> keys,
            Deserializer<V> values,
            IsolationLevel isolation,
            Predicate<List<ConsumerRecord<K, V>>> condition,
            Duration timeout) {
        Deadline deadline = Deadline.after(timeout);
        List<ConsumerRecord<K, V>> seen = new ArrayList<>();
        List<ConsumerRecord<K, V>> view = Collections.unmodifiableList(seen);
        try (KafkaConsumer<K, V> consumer = consumer(isolation, keys, values)) {
            List<TopicPartition> partitions = partitions(consumer, topic, deadline);
            consumer.assign(partitions);
            consumer.seekToBeginning(partitions);
            DeletionCheck deletion = new DeletionCheck(consumer, topic);
            while (true) {
                int before = seen.size();
                consumer.poll(POLL).forEach(seen::add);
                if (condition.test(view)) {
                    return new ArrayList<>(seen);
                }
                if (deadline.expired()) {
                    throw new AssertionError(describeTimeout(topic, isolation, timeout, seen));
                }
                deletion.afterPoll(seen.size() == before, seen.size());
            }
        }
    }

    /**
     * Reads the whole of {@code topic} with read_committed, up to the end offsets it has now: the
     * reader's position passes every record and transaction marker below them, so nothing
     * committed is missed and nothing is read twice. Use it after the writers stopped, to check a
     * topic's final contents (a late duplicate cannot hide behind a count already reached).
     *
     * @throws AssertionError if the end is not reached within {@code timeout}
     */
    public List<ConsumerRecord<String, String>> readAllCommittedStrings(String topic, Duration timeout) {
        return readAllCommitted(topic, new StringDeserializer(), new StringDeserializer(), timeout);
    }

    /** {@link #readAllCommittedStrings} with the given deserializers. */
    public <K, V> List<ConsumerRecord<K, V>> readAllCommitted(
            String topic, Deserializer<K> keys, Deserializer<V> values, Duration timeout) {
        List<ConsumerRecord<K, V>> seen = new ArrayList<>();
        forEachCommitted(topic, keys, values, timeout, seen::add);
        return seen;
    }

    /**
     * Like {@link #readAllCommitted(String, Deserializer, Deserializer, Duration)}, but hands each
     * record to {@code action} (per partition in offset order) instead of keeping it: for a topic
     * too large to hold in memory. Returns the number of records read.
     *
     * @throws AssertionError if the end is not reached within {@code timeout}
     */
    public <K, V> long forEachCommitted(
            String topic,
            Deserializer<K> keys,
            Deserializer<V> values,
            Duration timeout,
            java.util.function.Consumer<ConsumerRecord<K, V>> action) {
        Deadline deadline = Deadline.after(timeout);
        try (KafkaConsumer<K, V> consumer = consumer(IsolationLevel.READ_COMMITTED, keys, values)) {
            List<TopicPartition> partitions = partitions(consumer, topic, deadline);
            consumer.assign(partitions);
            consumer.seekToBeginning(partitions);
            Map<TopicPartition, Long> end = consumer.endOffsets(partitions, timeout);
            long[] read = {0};
            DeletionCheck deletion = new DeletionCheck(consumer, topic);
            while (partitions.stream().anyMatch(tp -> consumer.position(tp) < end.get(tp))) {
                if (deadline.expired()) {
                    throw new AssertionError("could not read '" + topic + "' to its end offsets " + end + " within "
                            + timeout.toMillis() + " ms; read " + read[0] + " records");
                }
                long before = read[0];
                consumer.poll(POLL).forEach(r -> {
                    action.accept(r);
                    read[0]++;
                });
                deletion.afterPoll(read[0] == before, (int) Math.min(Integer.MAX_VALUE, read[0]));
            }
            return read[0];
        }
    }

    private static <K, V> Predicate<List<ConsumerRecord<K, V>>> atLeast(int count) {
        return records -> records.size() >= count;
    }

    private static String describeTimeout(
            String topic, IsolationLevel isolation, Duration timeout, List<? extends ConsumerRecord<?, ?>> seen) {
        Map<Integer, Long> perPartition = seen.stream()
                .collect(Collectors.groupingBy(ConsumerRecord::partition, TreeMap::new, Collectors.counting()));
        String last = seen.subList(Math.max(0, seen.size() - 5), seen.size()).stream()
                .map(r -> r.partition() + "@" + r.offset() + " " + show(r.key()) + "=" + show(r.value()))
                .collect(Collectors.joining(", ", "[", "]"));
        return "Condition on topic '" + topic + "' (" + isolation.toString().toLowerCase() + ") not met within "
                + timeout.toMillis() + " ms; saw " + seen.size() + " records, per partition " + perPartition
                + ", last " + last;
    }

    private static String show(Object o) {
        String s = o instanceof byte[] ? new String((byte[]) o, StandardCharsets.UTF_8) : String.valueOf(o);
        return s.length() > 60 ? s.substring(0, 60) + "..." : s;
    }

    private <K, V> KafkaConsumer<K, V> consumer(
            IsolationLevel isolation, Deserializer<K> keys, Deserializer<V> values) {
        return new KafkaConsumer<>(
                settings(Map.of(
                        ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG,
                        bootstrapServers,
                        ConsumerConfig.CLIENT_ID_CONFIG,
                        "weir-testkit-reader-" + UUID.randomUUID(),
                        ConsumerConfig.ISOLATION_LEVEL_CONFIG,
                        isolation.toString().toLowerCase(),
                        ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG,
                        "false",
                        ConsumerConfig.AUTO_OFFSET_RESET_CONFIG,
                        "earliest")),
                keys,
                values);
    }

    /** {@code client} with the security settings added. */
    private Map<String, Object> settings(Map<String, Object> client) {
        Map<String, Object> all = new java.util.HashMap<>(security);
        all.putAll(client);
        return all;
    }

    /** All partitions of {@code topic}, waiting until {@code deadline} for it to exist. */
    private static List<TopicPartition> partitions(KafkaConsumer<?, ?> consumer, String topic, Deadline deadline) {
        Optional<List<TopicPartition>> partitions;
        try {
            // An unknown topic is answered at once: without a pause between the look-ups, metadata
            // requests would go back to back until the deadline.
            partitions = Poll.untilPresent(
                    () -> {
                        List<PartitionInfo> infos = consumer.partitionsFor(topic, POLL.multipliedBy(10));
                        return infos == null || infos.isEmpty()
                                ? Optional.empty()
                                : Optional.of(infos.stream()
                                        .map(i -> new TopicPartition(topic, i.partition()))
                                        .collect(Collectors.toList()));
                    },
                    deadline.remaining(),
                    POLL);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("Interrupted while waiting for a topic", e);
        }
        return partitions.orElseThrow(() -> new AssertionError("Topic '" + topic + "' does not exist (waited "
                + deadline.timeout().toMillis() + " ms)"));
    }

    /**
     * Fails a read whose topic was deleted. Checked after empty polls, at most once a second: the
     * consumer's cached metadata answers while the topic exists; after a deletion the failing
     * fetches make it refresh, and the topic is gone from the answer.
     */
    private static final class DeletionCheck {
        private final KafkaConsumer<?, ?> consumer;
        private final String topic;
        private Deadline next = Deadline.after(EXISTS_CHECK);

        DeletionCheck(KafkaConsumer<?, ?> consumer, String topic) {
            this.consumer = consumer;
            this.topic = topic;
        }

        void afterPoll(boolean empty, int seen) {
            if (!empty || !next.expired()) {
                return;
            }
            next = Deadline.after(EXISTS_CHECK);
            List<PartitionInfo> infos;
            try {
                infos = consumer.partitionsFor(topic, POLL.multipliedBy(50));
            } catch (org.apache.kafka.common.errors.TimeoutException unreachable) {
                return; // a broker outage (tests make them on purpose) says nothing about the topic
            }
            if (infos == null || infos.isEmpty()) {
                throw new AssertionError(
                        "Topic '" + topic + "' was deleted while being read; read " + seen + " records before");
            }
        }
    }

    private static byte[] utf8(String s) {
        return s == null ? null : s.getBytes(StandardCharsets.UTF_8);
    }

    private static String names(Collection<NewTopic> topics) {
        return topics.stream().map(NewTopic::name).collect(Collectors.joining(", "));
    }

    /** Closes the cached admin client and producer. */
    @Override
    public synchronized void close() {
        if (producer != null) {
            producer.close(Duration.ofSeconds(5));
            producer = null;
        }
        if (admin != null) {
            admin.close(Duration.ofSeconds(5));
            admin = null;
        }
    }
}
