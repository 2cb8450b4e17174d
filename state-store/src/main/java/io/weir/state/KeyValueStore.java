package io.weir.state;

import io.weir.common.KeyValue;
import java.util.List;

/**
 * A key-value store a processor writes to. Writes are visible to the writer's own reads at once
 * and become durable (changelogged, and applied to the local store) at the next commit; an aborted
 * commit discards them.
 *
 * <p>Guarantees: as {@link ReadOnlyKeyValueStore}; a {@code null} value deletes, as in a Kafka
 * changelog. Not thread-safe: a store is written by the one stream thread that owns its task.
 */
public interface KeyValueStore<K, V> extends ReadOnlyKeyValueStore<K, V> {

    /** Sets {@code key} to {@code value}; a {@code null} value deletes the key. */
    void put(K key, V value);

    /** Sets {@code key} to {@code value} only if it has no value; returns the value it had, or null. */
    V putIfAbsent(K key, V value);

    /** {@link #put} of each entry, in list order (a later entry for the same key wins). */
    void putAll(List<KeyValue<K, V>> entries);

    /** Deletes {@code key}; returns the value it had, or {@code null}. */
    V delete(K key);
}
