package io.weir.benchmarks.jobs;

import io.weir.common.internal.Poll;
import java.time.Duration;
import java.util.function.LongSupplier;

/**
 * Reads the restored changelog records a system reports once the number has settled: a child
 * process reports it every 100 ms ({@code CountApp}), so a number read at once can be one report
 * behind. Off the clock.
 */
final class RestoredRecords {

    /** Unchanged over this long: three reports. */
    static final Duration SETTLED = Duration.ofMillis(300);

    private static final Duration CHECK = Duration.ofMillis(50);
    private static final Duration TIMEOUT = Duration.ofSeconds(10);

    private RestoredRecords() {}

    /**
     * The number {@code reported} gives once it has not changed for {@link #SETTLED}, or the last
     * one read if it still changes after {@link #TIMEOUT} (a restore still under way).
     */
    static long settled(LongSupplier reported) throws InterruptedException {
        long[] last = {reported.getAsLong()};
        long[] since = {System.nanoTime()};
        Poll.until(
                () -> {
                    long now = reported.getAsLong();
                    if (now != last[0]) {
                        last[0] = now;
                        since[0] = System.nanoTime();
                    }
                    return System.nanoTime() - since[0] >= SETTLED.toNanos();
                },
                TIMEOUT,
                CHECK);
        return last[0];
    }
}
