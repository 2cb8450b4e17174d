package io.weir.time;

import java.util.Objects;
import java.util.function.ToLongFunction;

/**
 * The four notions of time (record, event, ingestion, processing), as {@link TimestampExtractor}s:
 * <ul>
 *   <li>{@link #recordTime()}: the timestamp stored with the Kafka record (the default);</li>
 *   <li>{@link #eventTime(ToLongFunction)}: a field of the value, when it happened (event time);</li>
 *   <li>{@link #logAppendTime()}: when the broker appended it (ingestion time);</li>
 *   <li>{@link #wallClock()}: when this instance processes it (processing time).</li>
 * </ul>
 */
public final class Timestamps {

    private Timestamps() {}

    /** The record's Kafka timestamp, whatever its type. */
    public static <K, V> TimestampExtractor<K, V> recordTime() {
        return (key, value, recordTimestamp) -> recordTimestamp;
    }

    /**
     * Event time from the value. A record whose value is null (a tombstone, which deletes its key
     * from a table) has no field to read: it keeps its Kafka timestamp, as Kafka Streams'
     * extractors do, so that deletes flow on instead of being dead-lettered. A record for which
     * {@code field} throws or returns a negative number goes to the dead-letter topic.
     */
    public static <K, V> TimestampExtractor<K, V> eventTime(ToLongFunction<? super V> field) {
        Objects.requireNonNull(field, "field");
        return (key, value, recordTimestamp) -> value == null ? recordTimestamp : field.applyAsLong(value);
    }

    /**
     * Ingestion time: the broker's append time. The topic must have
     * {@code message.timestamp.type=LogAppendTime}; a record that carries a create time instead
     * goes to the dead-letter topic, saying so, rather than being mis-timed silently.
     */
    @SuppressWarnings("unchecked")
    public static <K, V> TimestampExtractor<K, V> logAppendTime() {
        return (TimestampExtractor<K, V>) LogAppendTime.INSTANCE;
    }

    /** Processing time: the wall clock of the instance when the record is processed. */
    @SuppressWarnings("unchecked")
    public static <K, V> TimestampExtractor<K, V> wallClock() {
        return (TimestampExtractor<K, V>) WallClock.INSTANCE;
    }

    /** Marker the runtime recognizes: it checks the record's timestamp type. */
    private enum LogAppendTime implements TimestampExtractor<Object, Object> {
        INSTANCE;

        @Override
        public long extract(Object key, Object value, long recordTimestamp) {
            return recordTimestamp;
        }
    }

    /** Marker the runtime recognizes: it reads the task's wall clock (which a TestDriver controls). */
    private enum WallClock implements TimestampExtractor<Object, Object> {
        INSTANCE;

        @Override
        public long extract(Object key, Object value, long recordTimestamp) {
            return System.currentTimeMillis();
        }
    }
}
