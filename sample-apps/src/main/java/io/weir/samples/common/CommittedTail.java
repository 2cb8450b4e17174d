package io.weir.samples.common;

import io.weir.processor.Headers;
import io.weir.serde.Serde;
import io.weir.serde.SerdeException;
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
 * Follows an output topic like {@code kafka-console-consumer --isolation-level read_committed}:
 * only records of committed transactions are returned, so a record seen here is one the
 * application will never take back. Reads every partition in offset order, from its beginning or
 * from where it ended when the tail was opened.
 *
 * <p>Uses {@code assign()} without a consumer group and commits nothing. Records that the serdes
 * cannot read are skipped with a warning: someone else writes to the topic too. Not thread-safe.
 */
public final class CommittedTail<K, V> implements AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(CommittedTail.class);
    private static final Duration METADATA_TIMEOUT = Duration.ofSeconds(30);

    private final String topic;
    private final KafkaConsumer<byte[], byte[]> consumer;
    private final List<TopicPartition> partitions;
    private final Serde<K> keys;
    private final Serde<V> values;

    private CommittedTail(String topic, KafkaConsumer<byte[], byte[]> consumer, List<TopicPartition> partitions,
            Serde<K> keys, Serde<V> values) {
        this.topic = topic;
        this.consumer = consumer;
        this.partitions = partitions;
        this.keys = keys;
        this.values = values;
    }

    /** Opens a tail at the current committed end of every partition: earlier records are not shown. */
    public static <K, V> CommittedTail<K, V> fromEnd(String bootstrapServers, String topic, Serde<K> keys,
            Serde<V> values) {
        return open(bootstrapServers, topic, keys, values, true);
    }

    /** Opens a tail at the beginning of every partition: every committed record is shown. */
    public static <K, V> CommittedTail<K, V> fromBeginning(String bootstrapServers, String topic, Serde<K> keys,
            Serde<V> values) {
        return open(bootstrapServers, topic, keys, values, false);
    }

    private static <K, V> CommittedTail<K, V> open(String bootstrapServers, String topic, Serde<K> keys,
            Serde<V> values, boolean atEnd) {
        KafkaConsumer<byte[], byte[]> consumer = new KafkaConsumer<>(Map.of(
                ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers,
                ConsumerConfig.CLIENT_ID_CONFIG, "weir-sample-tail-" + UUID.randomUUID(),
                ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed",
                ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, "false"),
                new ByteArrayDeserializer(), new ByteArrayDeserializer());
        try {
            List<PartitionInfo> infos = consumer.partitionsFor(topic, METADATA_TIMEOUT);
            List<TopicPartition> partitions = new ArrayList<>();
            infos.forEach(i -> partitions.add(new TopicPartition(topic, i.partition())));
            consumer.assign(partitions);
            if (atEnd) {
                // Under read_committed the end offset is the last stable offset: records still in
                // an open transaction lie after it and will be read once committed.
                consumer.endOffsets(partitions, METADATA_TIMEOUT).forEach(consumer::seek);
            } else {
                consumer.seekToBeginning(partitions);
            }
            return new CommittedTail<>(topic, consumer, partitions, keys, values);
        } catch (RuntimeException e) {
            consumer.close();
            throw e;
        }
    }

    public String topic() {
        return topic;
    }

    /** The committed records that arrived within {@code timeout}, per partition in offset order. */
    public List<TailRecord<K, V>> poll(Duration timeout) {
        List<TailRecord<K, V>> records = new ArrayList<>();
        for (ConsumerRecord<byte[], byte[]> r : consumer.poll(timeout)) {
            try {
                records.add(new TailRecord<>(r.partition(), r.offset(), keys.deserialize(r.topic(), r.key()),
                        values.deserialize(r.topic(), r.value()), r.timestamp(), Headers.of(r.headers())));
            } catch (SerdeException e) {
                // Someone else writes to this topic too; it is not ours to judge, only to skip.
                log.warn("Skipping {}-{}@{}: unreadable: {}", r.topic(), r.partition(), r.offset(), e.getMessage());
            }
        }
        return records;
    }

    /**
     * Reads up to the committed end of every partition as it is now, for a final count after the
     * application has stopped: nothing committed before this call is missed.
     *
     * @return the records read, or what was read so far if {@code timeout} passes first
     */
    public List<TailRecord<K, V>> drainToEnd(Duration timeout) {
        long deadline = System.nanoTime() + timeout.toNanos();
        Map<TopicPartition, Long> end = consumer.endOffsets(partitions, METADATA_TIMEOUT);
        List<TailRecord<K, V>> records = new ArrayList<>();
        while (!reached(end)) {
            if (System.nanoTime() - deadline > 0) {
                log.warn("Stopped reading '{}' before its end: {} not reached within {}", topic, end, timeout);
                break;
            }
            records.addAll(poll(Duration.ofMillis(100)));
        }
        return records;
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
