package io.weir.processor;

import java.util.Objects;

/**
 * One record flowing through a topology: key, value, timestamp, headers, and where it came from
 * (source topic, partition and offset; {@code null}/{@code -1} for records a punctuation made).
 *
 * <p>Immutable: the {@code with...} methods return a copy that keeps the origin, so an output
 * can always be traced to the input record it was made from.
 */
public final class Record<K, V> {

    private final K key;
    private final V value;
    private final long timestamp;
    private final Headers headers;
    private final String topic;
    private final int partition;
    private final long offset;

    /** A record with no origin, for example one made by a punctuation. */
    public Record(K key, V value, long timestamp) {
        this(key, value, timestamp, Headers.empty(), null, -1, -1L);
    }

    public Record(K key, V value, long timestamp, Headers headers, String topic, int partition, long offset) {
        this.key = key;
        this.value = value;
        this.timestamp = timestamp;
        this.headers = Objects.requireNonNull(headers, "headers");
        this.topic = topic;
        this.partition = partition;
        this.offset = offset;
    }

    public K key() {
        return key;
    }

    public V value() {
        return value;
    }

    /** Milliseconds since the epoch. */
    public long timestamp() {
        return timestamp;
    }

    public Headers headers() {
        return headers;
    }

    /** The source topic, or {@code null} if the record was not read from a topic. */
    public String topic() {
        return topic;
    }

    /** The source partition, or -1. */
    public int partition() {
        return partition;
    }

    /** The source offset, or -1. */
    public long offset() {
        return offset;
    }

    public <NK> Record<NK, V> withKey(NK newKey) {
        return new Record<>(newKey, value, timestamp, headers, topic, partition, offset);
    }

    public <NV> Record<K, NV> withValue(NV newValue) {
        return new Record<>(key, newValue, timestamp, headers, topic, partition, offset);
    }

    public <NK, NV> Record<NK, NV> with(NK newKey, NV newValue) {
        return new Record<>(newKey, newValue, timestamp, headers, topic, partition, offset);
    }

    public Record<K, V> withTimestamp(long newTimestamp) {
        return new Record<>(key, value, newTimestamp, headers, topic, partition, offset);
    }

    public Record<K, V> withHeaders(Headers newHeaders) {
        return new Record<>(key, value, timestamp, newHeaders, topic, partition, offset);
    }

    @Override
    public String toString() {
        return "Record[key=" + key + ", value=" + value + ", timestamp=" + timestamp
                + (topic == null ? "" : ", from=" + topic + "-" + partition + "@" + offset) + "]";
    }
}
