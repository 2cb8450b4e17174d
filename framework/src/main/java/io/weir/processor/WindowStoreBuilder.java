package io.weir.processor;

import io.weir.serde.Serde;
import java.time.Duration;
import java.util.Objects;

/**
 * Declares a window store for the processor API: values per key and fixed-size window, as
 * {@link io.weir.state.WindowStore}. The defaults: RocksDB on local disk, backed by a changelog
 * topic {@code <application.id>-<name>-changelog} with {@code cleanup.policy=compact,delete} and
 * a time retention of retention + window size + 1 day.
 *
 * <p>A window starting at {@code s} is kept until its task's event-time watermark reaches
 * {@code s + windowSize + retention}, then dropped locally after a commit.
 *
 * <p>Immutable: every option returns a new builder.
 */
public final class WindowStoreBuilder<K, V> extends StoreDeclaration<K, V> {

    private final Duration windowSize;
    private final Duration retention;

    private WindowStoreBuilder(
            String name,
            Serde<K> keySerde,
            Serde<V> valueSerde,
            boolean persistent,
            boolean logged,
            Duration windowSize,
            Duration retention) {
        super(name, keySerde, valueSerde, persistent, logged);
        this.windowSize = windowSize;
        this.retention = retention;
    }

    static <K, V> WindowStoreBuilder<K, V> of(
            String name, Serde<K> keySerde, Serde<V> valueSerde, Duration windowSize, Duration retention) {
        Objects.requireNonNull(name, "name");
        long sizeMs = StoreDurations.positiveMillis(name, "window size", windowSize);
        StoreDurations.checkRetention(name, retention);
        return new WindowStoreBuilder<>(
                name,
                Objects.requireNonNull(keySerde, "keySerde"),
                Objects.requireNonNull(valueSerde, "valueSerde"),
                true,
                true,
                Duration.ofMillis(sizeMs),
                retention);
    }

    /** Keeps the store in memory (restored from the changelog after every restart). */
    public WindowStoreBuilder<K, V> inMemory() {
        return new WindowStoreBuilder<>(name(), keySerde(), valueSerde(), false, logged(), windowSize, retention);
    }

    /**
     * No changelog: faster, but the store cannot be rebuilt after its disk is lost, and after a
     * crash it may miss the last committed changes. Use only for state you can afford to lose.
     */
    public WindowStoreBuilder<K, V> withLoggingDisabled() {
        return new WindowStoreBuilder<>(name(), keySerde(), valueSerde(), persistent(), false, windowSize, retention);
    }

    /** The length of every window, in whole milliseconds. */
    public Duration windowSize() {
        return windowSize;
    }

    /** How long a window is kept after its end, in event time. */
    public Duration retention() {
        return retention;
    }
}
