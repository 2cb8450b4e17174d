package io.weir.state;

/**
 * A window store a processor writes to. Writes are visible to the writer's own reads at once and
 * become durable (changelogged, and applied to the local store) at the next commit; an aborted
 * commit discards them.
 *
 * <p>Retention: a window is kept until the event-time watermark of its task reaches
 * {@code start + windowSize + retention}; then it is dropped from the local store after a commit
 * (not through the changelog, whose topic has a time retention of its own). Writing a window that
 * has already expired is allowed; it is dropped again after the next commit.
 *
 * <p>Guarantees: as {@link ReadOnlyWindowStore}. Not thread-safe: a store is written by the one
 * stream thread that owns its task.
 */
public interface WindowStore<K, V> extends ReadOnlyWindowStore<K, V> {

    /**
     * Sets the value of {@code key} in the window starting at {@code windowStart}; a {@code null}
     * value deletes it.
     */
    void put(K key, long windowStart, V value);
}
