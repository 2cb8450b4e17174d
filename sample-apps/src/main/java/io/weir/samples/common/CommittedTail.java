package io.weir.samples.common;

import io.weir.common.internal.Deadline;
import io.weir.common.internal.Poll;
import io.weir.errors.SerdeException;
import io.weir.processor.Headers;
import io.weir.serde.Serde;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.consumer.CloseOptions;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.PartitionInfo;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.TimeoutException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Follows an output topic like {@code kafka-console-consumer --isolation-level read_committed}:
 * only records of committed transactions are returned, so a record seen here is one the
 * application will never take back. Reads every partition in offset order, from its beginning or
 * from where it ended when the tail was opened.
 *
 * <p>Uses {@code assign()} without a consumer group and commits nothing. Records that the serdes
 * cannot read are skipped with a warning: someone else writes to the topic too.
 *
 * <p>A deleted topic is noticed within about a second of an empty poll and reported once; the tail
 * then stops fetching (a consumer assigned to a deleted topic otherwise retries its fetches
 * without pause, logging a warning each time: hundreds of megabytes a minute) and, while
 * {@link #poll} keeps being called, looks every few seconds whether the topic was created again,
 * to read it from its beginning. Not thread-safe.
 */
public final class CommittedTail<K, V> implements AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(CommittedTail.class);
    private static final Duration METADATA_TIMEOUT = Duration.ofSeconds(30);
    /** How often an empty poll checks that the topic still exists (from the consumer's metadata). */
    private static final Duration CHECK_EXISTS = Duration.ofSeconds(1);
    /** How often a tail whose topic was deleted looks for it again (a request to the cluster). */
    private static final Duration CHECK_RECREATED = Duration.ofSeconds(5);
    /** Bounds how long a check may hold up the caller's loop when the cluster does not answer. */
    private static final Duration EXISTENCE_TIMEOUT = Duration.ofSeconds(5);

    private final String topic;
    private final KafkaConsumer<byte[], byte[]> consumer;
    private List<TopicPartition> partitions;
    private final Serde<K> keys;
    private final Serde<V> values;
    private boolean deleted;
    private Deadline nextExistenceCheck = Deadline.after(CHECK_EXISTS);
    private long recordsRead;

    private CommittedTail(
            String topic,
            KafkaConsumer<byte[], byte[]> consumer,
            List<TopicPartition> partitions,
            Serde<K> keys,
            Serde<V> values) {
        this.topic = topic;
        this.consumer = consumer;
        this.partitions = partitions;
        this.keys = keys;
        this.values = values;
    }

    /** Opens a tail at the current committed end of every partition: earlier records are not shown. */
    public static <K, V> CommittedTail<K, V> fromEnd(
            String bootstrapServers, String topic, Serde<K> keys, Serde<V> values) {
        return open(bootstrapServers, topic, keys, values, true);
    }

    /** Opens a tail at the beginning of every partition: every committed record is shown. */
    public static <K, V> CommittedTail<K, V> fromBeginning(
            String bootstrapServers, String topic, Serde<K> keys, Serde<V> values) {
        return open(bootstrapServers, topic, keys, values, false);
    }

    private static <K, V> CommittedTail<K, V> open(
            String bootstrapServers, String topic, Serde<K> keys, Serde<V> values, boolean atEnd) {
        KafkaConsumer<byte[], byte[]> consumer = KafkaClients.committedReader(bootstrapServers);
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

    /** True while the topic is deleted: polls return nothing (after their timeout) until it is created again. */
    public boolean deleted() {
        return deleted;
    }

    /**
     * The committed records that arrived within {@code timeout}, per partition in offset order.
     * Returns no earlier than {@code timeout} when there are none, also while the topic is deleted,
     * so a loop around it never spins.
     */
    public List<TailRecord<K, V>> poll(Duration timeout) {
        if (deleted) {
            awaitRecreation(timeout);
            return List.of();
        }
        ConsumerRecords<byte[], byte[]> polled = consumer.poll(timeout);
        if (polled.isEmpty() && nextExistenceCheck.expired()) {
            nextExistenceCheck = Deadline.after(CHECK_EXISTS);
            checkStillExists();
        }
        List<TailRecord<K, V>> records = new ArrayList<>();
        recordsRead += polled.count();
        for (ConsumerRecord<byte[], byte[]> r : polled) {
            try {
                records.add(new TailRecord<>(
                        r.partition(),
                        r.offset(),
                        keys.deserialize(r.topic(), r.key()),
                        values.deserialize(r.topic(), r.value()),
                        r.timestamp(),
                        Headers.of(r.headers())));
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
        if (deleted) {
            return List.of(); // said so when it was noticed
        }
        Deadline deadline = Deadline.after(timeout);
        Map<TopicPartition, Long> end = consumer.endOffsets(partitions, METADATA_TIMEOUT);
        List<TailRecord<K, V>> records = new ArrayList<>();
        while (!deleted && !reached(end)) {
            if (deadline.expired()) {
                log.warn("Stopped reading '{}' before its end: {} not reached within {}", topic, end, timeout);
                break;
            }
            records.addAll(poll(Duration.ofMillis(100)));
        }
        return records;
    }

    /**
     * A cheap check: the consumer's metadata answers while the topic exists. Once the topic is
     * deleted, the failing fetches make the consumer refresh its metadata, so the topic drops out
     * of it and this asks the cluster, which answers "unknown".
     */
    private void checkStillExists() {
        List<PartitionInfo> infos;
        try {
            infos = consumer.partitionsFor(topic, EXISTENCE_TIMEOUT);
        } catch (TimeoutException e) {
            return; // the cluster does not answer (the consumer says so itself): no news about the topic
        }
        if (infos == null || infos.isEmpty()) {
            deleted = true;
            consumer.assign(List.of()); // stops the fetches that fail in a loop
            log.warn(
                    "Topic '{}' no longer exists: stopped reading it after {} records; will read it from its"
                            + " beginning if it is created again",
                    topic,
                    recordsRead);
        }
    }

    /**
     * Waits {@code timeout} (pacing for the caller's loop, as a poll would), looking for the topic
     * every few seconds; returns at once when it is back, reassigned from its beginning.
     */
    private void awaitRecreation(Duration timeout) {
        try {
            Poll.until(() -> nextExistenceCheck.expired() && recreated(), timeout, timeout);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** Whether the topic exists again (a request to the cluster); if so, reads it from its beginning. */
    private boolean recreated() {
        nextExistenceCheck = Deadline.after(CHECK_RECREATED);
        List<PartitionInfo> infos;
        try {
            infos = consumer.partitionsFor(topic, EXISTENCE_TIMEOUT);
        } catch (TimeoutException e) {
            return false;
        }
        if (infos == null || infos.isEmpty()) {
            return false;
        }
        partitions = infos.stream()
                .map(i -> new TopicPartition(topic, i.partition()))
                .toList();
        consumer.assign(partitions);
        consumer.seekToBeginning(partitions);
        deleted = false;
        log.info("Topic '{}' exists again with {} partitions; reading it from its beginning", topic, partitions.size());
        return true;
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
