package io.weir.time;

/**
 * Where a record's time comes from when its source sets no {@link TimestampExtractor}: the
 * setting {@code default.timestamp} ({@code record}, {@code log_append} or {@code wall_clock}).
 */
public enum TimestampSource {
    /** The Kafka record's timestamp. */
    RECORD,
    /** The broker's append time (ingestion time); the topic must use LogAppendTime. */
    LOG_APPEND,
    /** The instance's clock when it processes the record (processing time). */
    WALL_CLOCK;

    /** The extractor that gives records this time. */
    public <K, V> TimestampExtractor<K, V> extractor() {
        return switch (this) {
            case RECORD -> Timestamps.recordTime();
            case LOG_APPEND -> Timestamps.logAppendTime();
            case WALL_CLOCK -> Timestamps.wallClock();
        };
    }
}
