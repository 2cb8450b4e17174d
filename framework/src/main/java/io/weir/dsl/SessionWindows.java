package io.weir.dsl;

import java.time.Duration;
import java.util.Objects;

/**
 * Session windows: the records of a key that follow each other within {@code inactivityGap} form
 * one session; a record that falls within the gap of two sessions merges them. A session's start
 * and end are the times of its first and last record (both inclusive).
 *
 * <p>A session closes when the watermark reaches its end plus the gap plus the allowed lateness
 * (no record can extend it any more).
 */
public record SessionWindows(Duration inactivityGap, Duration allowedLateness) {

    public SessionWindows {
        Objects.requireNonNull(inactivityGap, "inactivityGap");
        Objects.requireNonNull(allowedLateness, "allowedLateness");
        if (inactivityGap.toMillis() < 1) {
            throw new IllegalArgumentException("a session's inactivity gap must be at least 1 ms, was "
                    + inactivityGap);
        }
        if (allowedLateness.isNegative()) {
            throw new IllegalArgumentException("allowed lateness cannot be negative, was " + allowedLateness);
        }
    }

    public static SessionWindows withInactivityGap(Duration gap) {
        return new SessionWindows(gap, Duration.ZERO);
    }

    public SessionWindows allowedLateness(Duration lateness) {
        return new SessionWindows(inactivityGap, lateness);
    }
}
