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
 * arrives for a closed window is late (see {@link Emit} and the late-records topic).
 */
public final class TimeWindows {

    private final Duration size;
    private final Duration advance;
    private final Duration allowedLateness;

    private TimeWindows(Duration size, Duration advance, Duration allowedLateness) {
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
        this.size = size;
        this.advance = advance;
        this.allowedLateness = allowedLateness;
    }

    /** Tumbling windows of {@code size}, no allowed lateness. */
    public static TimeWindows of(Duration size) {
        return new TimeWindows(size, size, Duration.ZERO);
    }

    /** Hopping windows: a new window every {@code advance}. */
    public TimeWindows advanceBy(Duration advance) {
        return new TimeWindows(size, advance, allowedLateness);
    }

    /** How long after its end a window still takes late records and updates its result. */
    public TimeWindows allowedLateness(Duration lateness) {
        return new TimeWindows(size, advance, lateness);
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

    @Override
    public boolean equals(Object o) {
        return o instanceof TimeWindows w
                && size.equals(w.size)
                && advance.equals(w.advance)
                && allowedLateness.equals(w.allowedLateness);
    }

    @Override
    public int hashCode() {
        return Objects.hash(size, advance, allowedLateness);
    }

    @Override
    public String toString() {
        return "TimeWindows[size=" + size + ", advance=" + advance + ", allowedLateness=" + allowedLateness + "]";
    }
}
