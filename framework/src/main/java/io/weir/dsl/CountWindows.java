package io.weir.dsl;

import java.time.Duration;
import java.util.Objects;

/**
 * Windows of a fixed number of records per key: tumbling ({@code CountWindows.of(n)}: every
 * {@code n} records of a key form a window) or sliding ({@code .slideBy(s)}: a window of {@code n}
 * records starts every {@code s} records). A window is emitted once, when it is full.
 *
 * <p>A key that stops receiving records would leave its last window open for ever (the seeds'
 * warning); {@code .timeout(d)} closes a window that has not filled {@code d} of event time after
 * its first record, when the watermark passes that point, and emits it partially filled.
 *
 * <p>The window of a result has the times of its first and last record as start and end (both
 * inclusive).
 *
 * @param timeout null for none
 */
public record CountWindows(long size, long slide, Duration timeout) {

    public CountWindows {
        if (size < 1) {
            throw new IllegalArgumentException("a count window must hold at least 1 record, was " + size);
        }
        if (slide < 1 || slide > size) {
            throw new IllegalArgumentException("a count window's slide must be between 1 and its size (" + size
                    + "), was " + slide);
        }
        if (timeout != null && timeout.toMillis() < 1) {
            throw new IllegalArgumentException("a count window's timeout must be at least 1 ms, was " + timeout);
        }
    }

    public static CountWindows of(long size) {
        return new CountWindows(size, size, null);
    }

    public CountWindows slideBy(long slide) {
        return new CountWindows(size, slide, timeout);
    }

    public CountWindows timeout(Duration timeout) {
        return new CountWindows(size, slide, Objects.requireNonNull(timeout, "timeout"));
    }
}
