package io.weir.state;

/**
 * Read access to a session store: values by key and session, as Kafka Streams' interface of the
 * same name. A session is a {@link Windowed} key whose {@code start} and {@code end} are the
 * timestamps of its first and last record, <em>both inclusive</em>.
 *
 * <p>Guarantees: time bounds are inclusive; iterators must be closed. Sessions past the store's
 * retention disappear when they are dropped, which happens after a commit, not at the instant
 * they expire. Thread-safety and which writes a reader sees are said by the implementation.
 */
public interface ReadOnlySessionStore<K, V> {

    /** The store's name, unique within an application. */
    String name();

    /**
     * The sessions of {@code key} with {@code end >= earliestEnd} and {@code start <= latestStart}
     * (those overlapping or touching {@code [earliestEnd, latestStart]} when
     * {@code earliestEnd <= latestStart}: what a session-windowed aggregation merges a new record
     * into), ascending by end.
     */
    KeyValueIterator<Windowed<K>, V> findSessions(K key, long earliestEnd, long latestStart);

    /** The value of the session of {@code key} exactly from {@code start} to {@code end}, or {@code null}. */
    V fetchSession(K key, long start, long end);

    /**
     * The sessions of every key with {@code fromEnd <= end <= toEnd}, ascending by end (then by
     * start, then by the key's serialized bytes).
     */
    KeyValueIterator<Windowed<K>, V> fetchAll(long fromEnd, long toEnd);
}
