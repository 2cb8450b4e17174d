package io.weir.common.internal;

import java.time.Duration;
import java.util.Objects;
import java.util.function.LongSupplier;

/**
 * The moment a wait must end by, on the monotonic clock ({@link System#nanoTime()}): made from a
 * time-out when the wait starts, then asked whether it has passed and how much time is left. It
 * replaces adding a time-out to {@code System.nanoTime()} and comparing the sum with the clock
 * again, which is easy to get wrong (nanoTime values may only be compared by subtraction) and was
 * written differently in every loop.
 *
 * <p>Immutable and thread-safe. A time-out too long for the clock (over about 146 years) is
 * treated as that long.
 */
public final class Deadline {

    /** Half the clock's range, so that an end and "now" can always be compared by subtraction. */
    private static final long MAX_NANOS = Long.MAX_VALUE / 2;

    private final LongSupplier clock;
    private final Duration timeout;
    private final long endNanos;

    Deadline(Duration timeout, LongSupplier clock) {
        Objects.requireNonNull(timeout, "timeout");
        if (timeout.isNegative()) {
            throw new IllegalArgumentException("a time-out cannot be negative: " + timeout);
        }
        this.clock = clock;
        this.timeout = timeout;
        this.endNanos = clock.getAsLong() + nanos(timeout);
    }

    /** The deadline {@code timeout} from now. */
    public static Deadline after(Duration timeout) {
        return new Deadline(timeout, System::nanoTime);
    }

    /** The time-out this deadline was made with, for messages ("... within 30 s"). */
    public Duration timeout() {
        return timeout;
    }

    /** Whether the deadline has passed (it has at the very moment it is reached). */
    public boolean expired() {
        return clock.getAsLong() - endNanos >= 0;
    }

    /** The time left, zero once the deadline passed. */
    public Duration remaining() {
        return Duration.ofNanos(Math.max(0, endNanos - clock.getAsLong()));
    }

    /** A duration for messages: whole seconds as {@code "30 s"}, anything else in milliseconds. */
    public static String format(Duration d) {
        long millis = d.toMillis();
        return millis % 1000 == 0 && millis != 0 ? d.toSeconds() + " s" : millis + " ms";
    }

    private static long nanos(Duration timeout) {
        return timeout.compareTo(Duration.ofNanos(MAX_NANOS)) > 0 ? MAX_NANOS : timeout.toNanos();
    }

    @Override
    public String toString() {
        return "Deadline[" + format(timeout) + ", " + format(remaining()) + " left]";
    }
}
