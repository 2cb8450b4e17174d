package io.weir.processor;

import io.weir.serde.Serde;
import java.time.Duration;
import java.util.Objects;

/**
 * Declares a session store for the processor API: values per key and session, as
 * {@link io.weir.state.SessionStore}. The defaults: RocksDB on local disk, backed by a changelog
 * topic {@code <application.id>-<name>-changelog} with {@code cleanup.policy=compact,delete} and
 * a time retention of retention + 1 day.
 *
 * <p>A session whose last record is at {@code end} is kept until its task's event-time watermark
 * reaches {@code end + retention}, then dropped locally after a commit.
 *
 * <p>Immutable: every option returns a new builder.
 */
public final class SessionStoreBuilder<K, V> extends StoreDeclaration<K, V> {

    private final Duration retention;

    private SessionStoreBuilder(
            String name,
            Serde<K> keySerde,
            Serde<V> valueSerde,
            boolean persistent,
            boolean logged,
            Duration retention) {
        super(name, keySerde, valueSerde, persistent, logged);
        this.retention = retention;
    }

    static <K, V> SessionStoreBuilder<K, V> of(
            String name, Serde<K> keySerde, Serde<V> valueSerde, Duration retention) {
        Objects.requireNonNull(name, "name");
        StoreDurations.checkRetention(name, retention);
        return new SessionStoreBuilder<>(
                name,
                Objects.requireNonNull(keySerde, "keySerde"),
                Objects.requireNonNull(valueSerde, "valueSerde"),
                true,
                true,
                retention);
    }

    /** Keeps the store in memory (restored from the changelog after every restart). */
    public SessionStoreBuilder<K, V> inMemory() {
        return new SessionStoreBuilder<>(name(), keySerde(), valueSerde(), false, logged(), retention);
    }

    /**
     * No changelog: faster, but the store cannot be rebuilt after its disk is lost, and after a
     * crash it may miss the last committed changes. Use only for state you can afford to lose.
     */
    public SessionStoreBuilder<K, V> withLoggingDisabled() {
        return new SessionStoreBuilder<>(name(), keySerde(), valueSerde(), persistent(), false, retention);
    }

    /** How long a session is kept after its last record, in event time. */
    public Duration retention() {
        return retention;
    }
}
