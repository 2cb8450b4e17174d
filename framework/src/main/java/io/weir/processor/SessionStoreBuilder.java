package io.weir.processor;

import io.weir.internal.topology.StoreSpec;
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
public final class SessionStoreBuilder<K, V> {

    private final StoreSpec spec;

    private SessionStoreBuilder(StoreSpec spec) {
        this.spec = spec;
    }

    /** Keeps the store in memory (restored from the changelog after every restart). */
    public SessionStoreBuilder<K, V> inMemory() {
        return new SessionStoreBuilder<>(spec.withPersistent(false));
    }

    /**
     * No changelog: faster, but the store cannot be rebuilt after its disk is lost, and after a
     * crash it may miss the last committed changes. Use only for state you can afford to lose.
     */
    public SessionStoreBuilder<K, V> withLoggingDisabled() {
        return new SessionStoreBuilder<>(spec.withLogged(false));
    }

    public String name() {
        return spec.name();
    }

    /** How long a session is kept after its end, in event time. */
    public Duration retention() {
        return spec.retention();
    }

    /** For the topology builder. */
    StoreSpec spec() {
        return spec;
    }

    static <K, V> SessionStoreBuilder<K, V> of(String name, Serde<K> keySerde, Serde<V> valueSerde,
                                               Duration retention) {
        Objects.requireNonNull(name, "name");
        StoreDurations.checkRetention(name, retention);
        return new SessionStoreBuilder<>(new StoreSpec(name, Objects.requireNonNull(keySerde, "keySerde"),
                Objects.requireNonNull(valueSerde, "valueSerde"), true, true, null, StoreSpec.Kind.SESSION, 0,
                retention));
    }
}
