package io.weir.processor;

import java.time.Duration;
import java.util.Objects;

/** Checks of the durations that declare window and session stores, with messages naming the store. */
final class StoreDurations {

    private StoreDurations() {}

    /** {@code d} in whole milliseconds, at least one. */
    static long positiveMillis(String store, String what, Duration d) {
        Objects.requireNonNull(d, what);
        long ms;
        try {
            ms = d.toMillis();
        } catch (ArithmeticException e) {
            throw new IllegalArgumentException("store '" + store + "': " + what + " " + d + " is too long");
        }
        if (ms <= 0) {
            throw new IllegalArgumentException("store '" + store + "': " + what + " must be at least 1 ms, was " + d);
        }
        return ms;
    }

    static void checkRetention(String store, Duration retention) {
        Objects.requireNonNull(retention, "retention");
        if (retention.isNegative()) {
            throw new IllegalArgumentException(
                    "store '" + store + "': retention must not be negative, was " + retention);
        }
    }
}
