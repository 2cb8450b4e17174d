package io.weir.cli;

import io.weir.common.internal.Deadline;
import io.weir.config.WeirConfig;
import io.weir.internal.config.InternalTopic;
import io.weir.internal.supervision.LivenessWatch;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.IsolationLevel;
import org.apache.kafka.common.PartitionInfo;
import org.apache.kafka.common.TopicPartition;

/**
 * What each instance of an application last said in its liveness heartbeats
 * ({@code <application.id>-liveness}, written every {@code failure.detection.ms}/4): its state,
 * tasks, standbys and restores. Empty when the application runs without failure detection.
 */
final class Heartbeats {

    /** The last heartbeat of one instance, with its broker timestamp. */
    record Heartbeat(String instance, long timestamp, Map<String, String> status) {}

    /** Records read back from the end: many heartbeats per instance, enough for any group size. */
    private static final int TAIL = 2_000;

    private Heartbeats() {}

    /** The last heartbeat of every instance heard in the topic's recent records, by instance id. */
    static Map<String, Heartbeat> read(WeirConfig config) {
        Map<String, Heartbeat> last = new TreeMap<>();
        // Heartbeats are sent outside transactions: read_uncommitted reads them all.
        try (KafkaConsumer<byte[], byte[]> consumer =
                KafkaClients.reader(config, "weir-cli-heartbeats", IsolationLevel.READ_UNCOMMITTED)) {
            String topic = InternalTopic.LIVENESS.of(config.applicationId());
            List<PartitionInfo> infos = consumer.partitionsFor(topic, ClusterOptions.TIMEOUT);
            if (infos == null || infos.isEmpty()) {
                return last;
            }
            TopicPartition tp = new TopicPartition(topic, 0);
            consumer.assign(List.of(tp));
            long end = consumer.endOffsets(List.of(tp)).get(tp);
            long begin = consumer.beginningOffsets(List.of(tp)).get(tp);
            consumer.seek(tp, Math.max(begin, end - TAIL));
            Deadline deadline = Deadline.after(ClusterOptions.TIMEOUT);
            while (consumer.position(tp) < end && !deadline.expired()) {
                for (ConsumerRecord<byte[], byte[]> r : consumer.poll(Duration.ofMillis(200))) {
                    if (r.key() == null || r.value() == null || r.offset() >= end) {
                        continue;
                    }
                    String instance = new String(r.key(), StandardCharsets.UTF_8);
                    last.put(
                            instance,
                            new Heartbeat(
                                    instance,
                                    r.timestamp(),
                                    LivenessWatch.parseHeartbeat(new String(r.value(), StandardCharsets.UTF_8))));
                }
            }
        }
        return last;
    }
}
