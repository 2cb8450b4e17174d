package io.weir.dsl;

import java.time.Duration;
import java.util.Objects;

/**
 * Session windows: the records of a key that follow each other within {@code inactivityGap} form
 * one session; a record that falls within the gap of two sessions merges them. A session's start
 * and end are the times of its first and last record (both inclusive).
 *
 * <p>A session closes when the watermark reaches its end plus the gap plus the allowed lateness:
 * no record can extend it any more, and a record within its gap (at most the gap before its start
 * or after its end) is late rather than starting a session that would overlap it.
 */
public final class SessionWindows {

    private final Duration inactivityGap;
    private final Duration allowedLateness;

    private SessionWindows(Duration inactivityGap, Duration allowedLateness) {
        Objects.requireNonNull(inactivityGap, "inactivityGap");
        Objects.requireNonNull(allowedLateness, "allowedLateness");
        if (inactivityGap.toMillis() < 1) {
            throw new IllegalArgumentException(
                    "a session's inactivity gap must be at least 1 ms, was " + inactivityGap);
        }
        if (allowedLateness.isNegative()) {
            throw new IllegalArgumentException("allowed lateness cannot be negative, was " + allowedLateness);
        }
        this.inactivityGap = inactivityGap;
        this.allowedLateness = allowedLateness;
    }

    /** Sessions of records no more than {@code gap} apart, no allowed lateness. */
    public static SessionWindows withInactivityGap(Duration gap) {
        return new SessionWindows(gap, Duration.ZERO);
    }

    /** How long after it closes a session still takes late records. */
    public SessionWindows allowedLateness(Duration lateness) {
        return new SessionWindows(inactivityGap, lateness);
    }

    /** The longest time between two records of one session. */
    public Duration inactivityGap() {
        return inactivityGap;
    }

    public Duration allowedLateness() {
        return allowedLateness;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof SessionWindows w
                && inactivityGap.equals(w.inactivityGap)
                && allowedLateness.equals(w.allowedLateness);
    }

    @Override
    public int hashCode() {
        return Objects.hash(inactivityGap, allowedLateness);
    }

    @Override
    public String toString() {
        return "SessionWindows[inactivityGap=" + inactivityGap + ", allowedLateness=" + allowedLateness + "]";
    }
}
