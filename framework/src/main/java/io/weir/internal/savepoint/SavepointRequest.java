package io.weir.internal.savepoint;

import io.weir.common.internal.Deadline;
import io.weir.common.internal.KafkaCalls;
import io.weir.config.WeirConfig;
import io.weir.internal.config.InternalTopic;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;

/**
 * Takes a savepoint of a running application: writes the request to its control topic, follows
 * the instances' progress there, and once every task's stores are written, writes the manifest to
 * the savepoint topic and {@link ControlMessage.Completed} to the control topic. A savepoint that
 * is aborted or does not finish in time gets no manifest, so it is never listed as complete.
 */
public final class SavepointRequest {

    /** What the taking went through, for a tool to print as it happens. */
    public interface Listener {
        void progress(String line);
    }

    private final WeirConfig config;
    private final Listener listener;

    public SavepointRequest(WeirConfig config, Listener listener) {
        this.config = config;
        this.listener = listener;
    }

    /**
     * Takes savepoint {@code id}.
     *
     * @param stop     stop the application after it
     * @param timeout  how long the whole savepoint may take; the cut gets the same limit
     * @param topology the application's recorded topology description (JSON), or null
     * @return the manifest written
     * @throws IllegalStateException with the reason if it was aborted or timed out
     */
    public Manifest take(String id, boolean stop, Duration timeout, com.fasterxml.jackson.databind.JsonNode topology) {
        String app = config.applicationId();
        if (new SavepointCatalog(config).find(id).isPresent()) {
            // Its data keys would be written again: compaction of the savepoints topic would then
            // keep the new records and lose the listed savepoint's, should this one be aborted.
            throw new IllegalStateException("savepoint " + id + " of " + app + " exists; delete it first (weir"
                    + " savepoint delete --app " + app + " --id " + id + ") or choose another id");
        }
        TopicPartition control = new TopicPartition(InternalTopic.CONTROL.of(app), 0);
        try (KafkaConsumer<byte[], byte[]> consumer = SavepointClients.consumer(config, "savepoint");
                KafkaProducer<byte[], byte[]> producer = SavepointClients.producer(config, "savepoint")) {
            if (consumer.partitionsFor(control.topic(), Duration.ofSeconds(30)).isEmpty()) {
                throw new IllegalStateException("application " + app + " has no control topic " + control.topic()
                        + ": it has never run against " + config.bootstrapServers()
                        + " (is the application id right?)");
            }
            consumer.assign(List.of(control));
            consumer.seekToEnd(List.of(control));
            consumer.position(control);
            long requestedAt = System.currentTimeMillis();
            send(
                    producer,
                    control.topic(),
                    id,
                    ControlCodec.encode(new ControlMessage.Request(id, stop, timeout.toMillis(), requestedAt)));
            listener.progress(
                    "requested savepoint " + id + " of " + app + (stop ? " (the application stops after it)" : ""));
            Deadline deadline = Deadline.after(timeout);
            Map<String, ControlMessage.Done> done = new TreeMap<>();
            int taskCount = -1;
            int paused = 0;
            long cutAt = -1;
            while (taskCount < 0 || done.size() < taskCount) {
                if (deadline.expired()) {
                    String reason = "not complete within " + timeout.toSeconds() + " s: " + paused + " of "
                            + (taskCount < 0 ? "?" : taskCount) + " tasks paused, " + done.size() + " written"
                            + (taskCount < 0 ? " (is the application running?)" : "");
                    send(producer, control.topic(), id, ControlCodec.encode(new ControlMessage.Aborted(id, reason)));
                    throw new IllegalStateException("savepoint " + id + " " + reason);
                }
                for (ConsumerRecord<byte[], byte[]> r : consumer.poll(Duration.ofMillis(200))) {
                    ControlMessage m = ControlCodec.decode(r.value());
                    if (m == null || !m.id().equals(id)) {
                        continue;
                    }
                    if (m instanceof ControlMessage.Aborted a) {
                        throw new IllegalStateException("savepoint " + id + " was aborted: " + a.reason());
                    } else if (m instanceof ControlMessage.Paused p) {
                        taskCount = p.taskCount();
                        paused++;
                        if (paused == taskCount) {
                            cutAt = r.timestamp();
                            listener.progress("cut complete: " + taskCount + " tasks paused at a commit, "
                                    + (cutAt - requestedAt) + " ms after the request; copying stores");
                        }
                    } else if (m instanceof ControlMessage.Done d) {
                        done.put(d.task(), d);
                    }
                }
            }
            List<Manifest.TaskEntry> tasks = new ArrayList<>();
            done.values().forEach(d -> tasks.add(new Manifest.TaskEntry(d.task(), d.offsets(), d.stores())));
            Manifest manifest = new Manifest(
                    id,
                    app,
                    cutAt > 0 ? cutAt : System.currentTimeMillis(),
                    stop,
                    io.weir.internal.config.WeirVersion.current(),
                    topology,
                    tasks);
            // Acknowledged before "complete" is announced: a manifest the broker refused must fail the
            // request, not leave a savepoint reported as taken that no catalog lists.
            send(
                    producer,
                    new ProducerRecord<>(
                            InternalTopic.SAVEPOINTS.of(app),
                            SavepointTopics.CATALOG_PARTITION,
                            SavepointTopics.manifestKey(id),
                            manifest.encode()));
            send(producer, control.topic(), id, ControlCodec.encode(new ControlMessage.Completed(id)));
            listener.progress("savepoint " + id + " complete: " + tasks.size() + " tasks, " + manifest.records()
                    + " entries, " + manifest.bytes() + " bytes, " + (System.currentTimeMillis() - requestedAt)
                    + " ms after the request");
            return manifest;
        }
    }

    private static void send(KafkaProducer<byte[], byte[]> producer, String topic, String id, byte[] value) {
        send(producer, new ProducerRecord<>(topic, 0, id.getBytes(StandardCharsets.UTF_8), value));
    }

    private static void send(KafkaProducer<byte[], byte[]> producer, ProducerRecord<byte[], byte[]> record) {
        KafkaCalls.get(producer.send(record), SavepointClients.SEND_TIMEOUT, "write to " + record.topic());
    }

    /** A new savepoint id: {@code sp-<UTC time>}, sortable and readable. */
    public static String newId() {
        return "sp-"
                + java.time.format.DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss-SSS")
                        .withZone(java.time.ZoneOffset.UTC)
                        .format(java.time.Instant.now());
    }
}
