package io.weir.processor;

import io.weir.serde.Serde;
import java.time.Duration;
import java.util.Objects;
import java.util.Optional;

/**
 * Declares a key-value state store for the processor API: its stable name, serdes, and options.
 * The defaults are what a stateful service wants: RocksDB on local disk, backed by a compacted
 * changelog topic {@code <application.id>-<name>-changelog}, entries kept for ever.
 *
 * <p>Immutable: every option returns a new builder.
 */
public final class KeyValueStoreBuilder<K, V> extends StoreDeclaration<K, V> {

    private final Duration ttl;

    private KeyValueStoreBuilder(
            String name, Serde<K> keySerde, Serde<V> valueSerde, boolean persistent, boolean logged, Duration ttl) {
        super(name, keySerde, valueSerde, persistent, logged);
        this.ttl = ttl;
    }

    static <K, V> KeyValueStoreBuilder<K, V> of(String name, Serde<K> keySerde, Serde<V> valueSerde) {
        return new KeyValueStoreBuilder<>(
                Objects.requireNonNull(name, "name"),
                Objects.requireNonNull(keySerde, "keySerde"),
                Objects.requireNonNull(valueSerde, "valueSerde"),
                true,
                true,
                null);
    }

    /** Keeps the store in memory (restored from the changelog after every restart). */
    public KeyValueStoreBuilder<K, V> inMemory() {
        return new KeyValueStoreBuilder<>(name(), keySerde(), valueSerde(), false, logged(), ttl);
    }

    /** Entries expire {@code ttl} after their last write: invisible at once, removed eventually. */
    public KeyValueStoreBuilder<K, V> withTtl(Duration ttl) {
        Objects.requireNonNull(ttl, "ttl");
        if (ttl.isNegative() || ttl.isZero()) {
            throw new IllegalArgumentException("a store's TTL must be positive, was " + ttl);
        }
        return new KeyValueStoreBuilder<>(name(), keySerde(), valueSerde(), persistent(), logged(), ttl);
    }

    /**
     * No changelog: faster, but the store cannot be rebuilt after its disk is lost, and after a
     * crash it may miss the last committed changes. Use only for state you can afford to lose.
     */
    public KeyValueStoreBuilder<K, V> withLoggingDisabled() {
        return new KeyValueStoreBuilder<>(name(), keySerde(), valueSerde(), persistent(), false, ttl);
    }

    /** How long an entry lives after its last write; empty for ever (the default). */
    public Optional<Duration> ttl() {
        return Optional.ofNullable(ttl);
    }
}
