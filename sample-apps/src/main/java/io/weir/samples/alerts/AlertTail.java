package io.weir.samples.alerts;

import io.weir.serde.Serde;
import io.weir.serde.SerdeException;
import io.weir.serde.Serdes;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.apache.kafka.clients.consumer.CloseOptions;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.PartitionInfo;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Follows the alerts topic like {@code kafka-console-consumer --isolation-level read_committed}:
 * only alerts of committed transactions are returned, so an alert seen here is one the
 * application will never take back. Reads every partition from where it ended when the tail was
 * opened, so alerts of earlier runs on the same topic are not shown.
 *
 * <p>Uses {@code assign()} without a consumer group and commits nothing. Not thread-safe.
 */
final class AlertTail implements AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(AlertTail.class);
    private static final Duration METADATA_TIMEOUT = Duration.ofSeconds(30);

    private final KafkaConsumer<byte[], byte[]> consumer;
    private final List<TopicPartition> partitions;
    private final Serde<Alert> serde = Serdes.json(Alert.class);

    private AlertTail(KafkaConsumer<byte[], byte[]> consumer, List<TopicPartition> partitions) {
        this.consumer = consumer;
        this.partitions = partitions;
    }

    /** Opens a tail positioned at the current committed end of every partition of {@code topic}. */
    static AlertTail fromEnd(String bootstrapServers, String topic) {
        KafkaConsumer<byte[], byte[]> consumer = new KafkaConsumer<>(Map.of(
                ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers,
                ConsumerConfig.CLIENT_ID_CONFIG, "temperature-alerts-tail-" + UUID.randomUUID(),
                ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed",
                ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, "false"),
                new ByteArrayDeserializer(), new ByteArrayDeserializer());
        try {
            List<PartitionInfo> infos = consumer.partitionsFor(topic, METADATA_TIMEOUT);
            List<TopicPartition> partitions = new ArrayList<>();
            infos.forEach(i -> partitions.add(new TopicPartition(topic, i.partition())));
            consumer.assign(partitions);
            // Under read_committed the end offset is the last stable offset: alerts still in an
            // open transaction lie after it and will be read once committed.
            consumer.endOffsets(partitions, METADATA_TIMEOUT).forEach(consumer::seek);
            return new AlertTail(consumer, partitions);
        } catch (RuntimeException e) {
            consumer.close();
            throw e;
        }
    }

    /** The committed alerts that arrived within {@code timeout}, per partition in offset order. */
    List<Alert> poll(Duration timeout) {
        List<Alert> alerts = new ArrayList<>();
        for (ConsumerRecord<byte[], byte[]> r : consumer.poll(timeout)) {
            try {
                alerts.add(serde.deserialize(r.topic(), r.value()));
            } catch (SerdeException e) {
                // Someone else writes to this topic too; it is not ours to judge, only to skip.
                log.warn("Skipping {}-{}@{}: not an alert: {}", r.topic(), r.partition(), r.offset(), e.getMessage());
            }
        }
        return alerts;
    }

    /**
     * Reads up to the committed end of every partition as it is now, for a final count after the
     * application has stopped: nothing committed before this call is missed.
     *
     * @return the alerts read, or what was read so far if {@code timeout} passes first
     */
    List<Alert> drainToEnd(Duration timeout) {
        long deadline = System.nanoTime() + timeout.toNanos();
        Map<TopicPartition, Long> end = consumer.endOffsets(partitions, METADATA_TIMEOUT);
        List<Alert> alerts = new ArrayList<>();
        while (!reached(end)) {
            if (System.nanoTime() - deadline > 0) {
                log.warn("Stopped reading the alerts topic before its end: {} not reached within {}", end, timeout);
                break;
            }
            alerts.addAll(poll(Duration.ofMillis(100)));
        }
        return alerts;
    }

    private boolean reached(Map<TopicPartition, Long> end) {
        for (Map.Entry<TopicPartition, Long> e : end.entrySet()) {
            if (consumer.position(e.getKey(), METADATA_TIMEOUT) < e.getValue()) {
                return false;
            }
        }
        return true;
    }

    @Override
    public void close() {
        consumer.close(CloseOptions.timeout(Duration.ofSeconds(5)));
    }
}
