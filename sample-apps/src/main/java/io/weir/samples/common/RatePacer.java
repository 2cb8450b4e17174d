package io.weir.samples.common;

import java.util.function.LongSupplier;

/**
 * Spreads sends evenly at a fixed rate: send number {@code i} is due {@code i / rate} seconds
 * after the start. A sender asks {@link #due()} how many sends are due now, sends them, and
 * waits {@link #nanosUntilNext()} before asking again. If the sender falls behind by more than a
 * second (a slow broker, a paused JVM), the schedule moves forward instead of bursting to catch
 * up, so the rate never exceeds what was asked for over any second.
 *
 * <p>Not thread-safe: one sending thread owns it.
 */
public final class RatePacer {

    private static final long SECOND = 1_000_000_000L;

    private final LongSupplier nanoTime;
    private final double intervalNanos;
    private long start;
    private long scheduled;

    /**
     * @param recordsPerSecond at least 1
     * @param nanoTime         the clock ({@code System::nanoTime}; a fake one in tests)
     */
    public RatePacer(int recordsPerSecond, LongSupplier nanoTime) {
        if (recordsPerSecond < 1) {
            throw new IllegalArgumentException(
                    "the rate must be at least 1 record per second, was " + recordsPerSecond);
        }
        this.nanoTime = nanoTime;
        this.intervalNanos = (double) SECOND / recordsPerSecond;
        this.start = nanoTime.getAsLong();
    }

    /** How many sends are due now; counts them as done. */
    public int due() {
        long now = nanoTime.getAsLong();
        long dueTotal = (long) Math.floor((now - start) / intervalNanos) + 1;
        long behind = dueTotal - scheduled;
        long perSecond = Math.max(1, Math.round(SECOND / intervalNanos));
        if (behind > perSecond) {
            // More than a second behind: drop the missed slots rather than burst.
            start = now;
            scheduled = 0;
            behind = 1;
            dueTotal = 1;
        }
        if (behind <= 0) {
            return 0;
        }
        scheduled = dueTotal;
        return (int) behind;
    }

    /** Nanoseconds until the next send is due (0 if it is due now). */
    public long nanosUntilNext() {
        long next = start + (long) Math.ceil(scheduled * intervalNanos);
        return Math.max(0, next - nanoTime.getAsLong());
    }
}
