package io.weir.time;

/**
 * Gives a record its time: the timestamp windows, watermarks and event-time timers use. Set per
 * source ({@code TopologyBuilder.stream(keySerde, valueSerde, extractor, topics)}); sources
 * without one use the record's Kafka timestamp, or {@code default.timestamp}.
 *
 * <p>Called once per record, on the task's thread, after the key and value were deserialized. A
 * negative result, or an exception, sends the record to the dead-letter topic with stage
 * {@code timestamp} and the reason; the application keeps running.
 *
 * @param <K> key type of the source
 * @param <V> value type of the source
 * @see Timestamps for the common extractors
 */
@FunctionalInterface
public interface TimestampExtractor<K, V> {

    /**
     * The record's time in milliseconds since the epoch.
     *
     * @param recordTimestamp the timestamp Kafka stored with the record (producer create time, or
     *                        the broker's append time for topics with
     *                        {@code message.timestamp.type=LogAppendTime}); negative if it has none
     */
    long extract(K key, V value, long recordTimestamp);
}
