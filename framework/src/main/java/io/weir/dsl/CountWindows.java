package io.weir.dsl;

import java.time.Duration;
import java.util.Objects;
import java.util.Optional;

/**
 * Windows of a fixed number of records per key: tumbling ({@code CountWindows.of(n)}: every
 * {@code n} records of a key form a window) or sliding ({@code .slideBy(s)}: a window of {@code n}
 * records starts every {@code s} records). A window is emitted once, when it is full.
 *
 * <p>A key that stops receiving records would leave its last window open for ever;
 * {@code .timeout(d)} closes a window that has not filled {@code d} of event time after
 * its first record, when the watermark passes that point, and emits it partially filled.
 *
 * <p>The window of a result has the times of its first and last record as start and end (both
 * inclusive).
 */
public final class CountWindows {

    private final long size;
    private final long slide;
    private final Duration timeout;

    private CountWindows(long size, long slide, Duration timeout) {
        if (size < 1) {
            throw new IllegalArgumentException("a count window must hold at least 1 record, was " + size);
        }
        if (slide < 1 || slide > size) {
            throw new IllegalArgumentException(
                    "a count window's slide must be between 1 and its size (" + size + "), was " + slide);
        }
        if (timeout != null && timeout.toMillis() < 1) {
            throw new IllegalArgumentException("a count window's timeout must be at least 1 ms, was " + timeout);
        }
        this.size = size;
        this.slide = slide;
        this.timeout = timeout;
    }

    /** Tumbling windows of {@code size} records of a key, no timeout. */
    public static CountWindows of(long size) {
        return new CountWindows(size, size, null);
    }

    /** Sliding windows: a new window every {@code slide} records (between 1 and the size). */
    public CountWindows slideBy(long slide) {
        return new CountWindows(size, slide, timeout);
    }

    /** Closes a window that has not filled {@code timeout} of event time after its first record. */
    public CountWindows timeout(Duration timeout) {
        return new CountWindows(size, slide, Objects.requireNonNull(timeout, "timeout"));
    }

    /** The records of a full window. */
    public long size() {
        return size;
    }

    /** The records between window starts; equal to {@link #size()} for tumbling windows. */
    public long slide() {
        return slide;
    }

    /** The event time after which a window that has not filled closes; empty for none (the default). */
    public Optional<Duration> timeout() {
        return Optional.ofNullable(timeout);
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof CountWindows w && size == w.size && slide == w.slide && Objects.equals(timeout, w.timeout);
    }

    @Override
    public int hashCode() {
        return Objects.hash(size, slide, timeout);
    }

    @Override
    public String toString() {
        return "CountWindows[size=" + size + ", slide=" + slide + ", timeout=" + timeout + "]";
    }
}
