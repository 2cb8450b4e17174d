package io.weir.internal.task;

import io.weir.internal.commit.OpenTransaction;
import io.weir.internal.time.MarkerSink;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.utils.Utils;

/**
 * Where sink nodes send records: checks the size against the topic's limit, then sends through
 * the thread's {@link OpenTransaction}, inside the current commit interval.
 */
public final class OutputCollector implements MarkerSink {

    private final OpenTransaction transaction;
    private final TopicLimits limits;
    private long sent;

    public OutputCollector(OpenTransaction transaction, TopicLimits limits) {
        this.transaction = transaction;
        this.limits = limits;
    }

    void send(String topic, byte[] key, byte[] value, long timestamp, Header[] headers) {
        send(topic, key, value, timestamp, headers, null);
    }

    /**
     * As {@link #send(String, byte[], byte[], long, Header[])}, choosing the partition by
     * {@code partitionKey} (with the producer's default hash) instead of the whole key when it is
     * not null: windowed results go by their inner key, so every window of a key lands in the
     * partition the key itself would, in order (as Kafka Streams does).
     */
    void send(String topic, byte[] key, byte[] value, long timestamp, Header[] headers, byte[] partitionKey) {
        Integer partition =
                partitionKey == null ? null : Utils.toPositive(Utils.murmur2(partitionKey)) % limits.partitions(topic);
        sendTo(topic, partition, key, value, timestamp, headers);
    }

    /**
     * As {@link #send(String, byte[], byte[], long, Header[])}, to {@code partition} (a partitioner's
     * choice, checked to be one of the topic's); null for the producer's default partitioner.
     */
    void sendTo(String topic, Integer partition, byte[] key, byte[] value, long timestamp, Header[] headers) {
        int size = TopicLimits.estimateSize(key, value, headers);
        int limit = limits.limit(topic);
        if (size > limit) {
            throw new StageException(
                    Stage.PRODUCE,
                    "record of about " + size + " bytes is larger than the " + limit + " bytes topic '" + topic
                            + "' accepts (max.message.bytes / max.request.size)",
                    null);
        }
        transaction.send(new ProducerRecord<>(
                topic, partition, timestamp, key, value, headers.length == 0 ? null : java.util.List.of(headers)));
        sent++;
    }

    /** The partition count of {@code topic}. */
    @Override
    public int partitions(String topic) {
        return limits.partitions(topic);
    }

    /**
     * Sends a control record (no key, no value, one header) to a given partition, timed by the
     * producer's clock; it does not count as an output.
     */
    @Override
    public void sendMarker(String topic, int partition, String header, byte[] value) {
        transaction.send(new ProducerRecord<byte[], byte[]>(
                topic,
                partition,
                (Long) null,
                null,
                null,
                java.util.List.of(new org.apache.kafka.common.header.internals.RecordHeader(header, value))));
    }

    /** Records sent since the last {@link #drainSentCount}, without resetting it. */
    public long sentCount() {
        return sent;
    }

    /** Records sent since the last call; for the records-out metric. */
    public long drainSentCount() {
        long n = sent;
        sent = 0;
        return n;
    }
}
