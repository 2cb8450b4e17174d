package io.weir.state;

/**
 * A session store a processor writes to. Writes are visible to the writer's own reads at once and
 * become durable (changelogged, and applied to the local store) at the next commit; an aborted
 * commit discards them.
 *
 * <p>Retention: a session is kept until the event-time watermark of its task reaches
 * {@code end + retention}; then it is dropped from the local store after a commit (not through the
 * changelog, whose topic has a time retention of its own).
 *
 * <p>Guarantees: as {@link ReadOnlySessionStore}. Not thread-safe: a store is written by the one
 * stream thread that owns its task.
 */
public interface SessionStore<K, V> extends ReadOnlySessionStore<K, V> {

    /**
     * Sets the value of {@code session} (key, first and last record time, both inclusive); a
     * {@code null} value removes it. Merging sessions is the caller's job: remove the merged ones
     * and put the new one.
     */
    void put(Windowed<K> session, V value);

    /** Removes {@code session} (the exact key, start and end); nothing happens if it is absent. */
    void remove(Windowed<K> session);
}
