package io.weir.processor;

import io.weir.internal.topology.StoreSpec;
import io.weir.serde.Serde;
import java.time.Duration;
import java.util.Objects;

/**
 * Declares a key-value state store for the processor API: its stable name, serdes, and options.
 * The defaults are what a stateful service wants: RocksDB on local disk, backed by a compacted
 * changelog topic {@code <application.id>-<name>-changelog}, entries kept for ever.
 *
 * <p>Immutable: every option returns a new builder.
 */
public final class KeyValueStoreBuilder<K, V> {

    private final StoreSpec spec;

    KeyValueStoreBuilder(StoreSpec spec) {
        this.spec = spec;
    }

    /** Keeps the store in memory (restored from the changelog after every restart). */
    public KeyValueStoreBuilder<K, V> inMemory() {
        return new KeyValueStoreBuilder<>(new StoreSpec(spec.name(), spec.keySerde(), spec.valueSerde(), false,
                spec.logged(), spec.ttl()));
    }

    /** Entries expire {@code ttl} after their last write: invisible at once, removed eventually. */
    public KeyValueStoreBuilder<K, V> withTtl(Duration ttl) {
        Objects.requireNonNull(ttl, "ttl");
        if (ttl.isNegative() || ttl.isZero()) {
            throw new IllegalArgumentException("a store's TTL must be positive, was " + ttl);
        }
        return new KeyValueStoreBuilder<>(new StoreSpec(spec.name(), spec.keySerde(), spec.valueSerde(),
                spec.persistent(), spec.logged(), ttl));
    }

    /**
     * No changelog: faster, but the store cannot be rebuilt after its disk is lost, and after a
     * crash it may miss the last committed changes. Use only for state you can afford to lose.
     */
    public KeyValueStoreBuilder<K, V> withLoggingDisabled() {
        return new KeyValueStoreBuilder<>(new StoreSpec(spec.name(), spec.keySerde(), spec.valueSerde(),
                spec.persistent(), false, spec.ttl()));
    }

    public String name() {
        return spec.name();
    }

    /** For the topology builder. */
    StoreSpec spec() {
        return spec;
    }

    static <K, V> KeyValueStoreBuilder<K, V> of(String name, Serde<K> keySerde, Serde<V> valueSerde) {
        Objects.requireNonNull(name, "name");
        return new KeyValueStoreBuilder<>(new StoreSpec(name, Objects.requireNonNull(keySerde, "keySerde"),
                Objects.requireNonNull(valueSerde, "valueSerde"), true, true, null));
    }
}
