package io.weir.dsl;

import java.time.Duration;
import java.util.Objects;

/**
 * Fixed-size windows of event time: tumbling ({@code TimeWindows.of(size)}: each record in exactly
 * one window) or hopping/sliding ({@code .advanceBy(advance)} with {@code advance < size}: a
 * record in {@code size / advance} windows). Windows are aligned to the epoch: a window starts at
 * a multiple of the advance, includes its start and excludes its end; no window starts before 0.
 *
 * <p>A window closes when the watermark reaches its end plus the allowed lateness; a record that
 * arrives for a closed window is late (see {@link Emit} and the late-records topic). Its store
 * keeps it until then, or until the watermark reaches its end plus {@link #retainFor(Duration)}
 * when that is longer, so that queries can still read closed windows.
 */
public final class TimeWindows {

    private final Duration size;
    private final Duration advance;
    private final Duration allowedLateness;
    /** Null: as long as the allowed lateness. */
    private final Duration retention;

    private TimeWindows(Duration size, Duration advance, Duration allowedLateness, Duration retention) {
        Objects.requireNonNull(size, "size");
        Objects.requireNonNull(advance, "advance");
        Objects.requireNonNull(allowedLateness, "allowedLateness");
        if (size.toMillis() < 1) {
            throw new IllegalArgumentException("a window's size must be at least 1 ms, was " + size);
        }
        if (advance.toMillis() < 1 || advance.compareTo(size) > 0) {
            throw new IllegalArgumentException(
                    "a window's advance must be at least 1 ms and at most its size (" + size + "), was " + advance);
        }
        if (allowedLateness.isNegative()) {
            throw new IllegalArgumentException("allowed lateness cannot be negative, was " + allowedLateness);
        }
        if (retention != null && retention.compareTo(allowedLateness) < 0) {
            throw new IllegalArgumentException("a window is kept at least as long as it takes late records: retainFor("
                    + retention + ") is shorter than the allowed lateness (" + allowedLateness + ")");
        }
        this.size = size;
        this.advance = advance;
        this.allowedLateness = allowedLateness;
        this.retention = retention;
    }

    /** Tumbling windows of {@code size}, no allowed lateness. */
    public static TimeWindows of(Duration size) {
        return new TimeWindows(size, size, Duration.ZERO, null);
    }

    /** Hopping windows: a new window every {@code advance}. */
    public TimeWindows advanceBy(Duration advance) {
        return new TimeWindows(size, advance, allowedLateness, retention);
    }

    /** How long after its end a window still takes late records and updates its result. */
    public TimeWindows allowedLateness(Duration lateness) {
        return new TimeWindows(size, advance, lateness, retention);
    }

    /**
     * Keeps each window in its store until the watermark passes its end plus {@code retention},
     * so that queries ({@code GET /stores/{store}/keys/{key}/windows}, {@code windowStore(name)})
     * read closed windows too, as Kafka Streams' {@code Materialized.withRetention} does. A closed
     * window kept this way takes no more records (they are late) and is never emitted again. At
     * least the allowed lateness, which is the default; the changelog's {@code retention.ms} grows
     * with it.
     */
    public TimeWindows retainFor(Duration retention) {
        return new TimeWindows(size, advance, allowedLateness, Objects.requireNonNull(retention, "retention"));
    }

    /** The window length. */
    public Duration size() {
        return size;
    }

    /** The distance between window starts; equal to {@link #size()} for tumbling windows. */
    public Duration advance() {
        return advance;
    }

    /** How long after its end a window still accepts records (Kafka Streams' grace period). */
    public Duration allowedLateness() {
        return allowedLateness;
    }

    /** How long after its end the store keeps a window: {@link #retainFor(Duration)}, else the allowed lateness. */
    public Duration retention() {
        return retention != null ? retention : allowedLateness;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof TimeWindows w
                && size.equals(w.size)
                && advance.equals(w.advance)
                && allowedLateness.equals(w.allowedLateness)
                && retention().equals(w.retention());
    }

    @Override
    public int hashCode() {
        return Objects.hash(size, advance, allowedLateness, retention());
    }

    @Override
    public String toString() {
        return "TimeWindows[size=" + size + ", advance=" + advance + ", allowedLateness=" + allowedLateness
                + (retention != null ? ", retention=" + retention : "") + "]";
    }
}
