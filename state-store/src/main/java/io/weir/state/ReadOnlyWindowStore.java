package io.weir.state;

/**
 * Read access to a window store: values by key and window start, for fixed-size windows (tumbling
 * or hopping) of {@link #windowSize()} milliseconds, as Kafka Streams' interface of the same name.
 * A window starting at {@code s} covers {@code [s, s + windowSize)}.
 *
 * <p>Guarantees: time bounds are inclusive; a range whose {@code from} is after its {@code to} is
 * empty. Iterators return {@link Windowed} keys ({@code end = start + windowSize}) and must be
 * closed. Windows past the store's retention disappear when they are dropped, which happens after
 * a commit, not at the instant they expire: a read may still see a window that just expired.
 * Thread-safety and which writes a reader sees are said by the implementation.
 */
public interface ReadOnlyWindowStore<K, V> {

    /** The store's name, unique within an application. */
    String name();

    /** The value of {@code key} in the window starting at {@code windowStart}, or {@code null}. */
    V fetch(K key, long windowStart);

    /**
     * The windows of {@code key} with {@code fromStart <= start <= toStart}, ascending by start.
     * Cost: the store is ordered by window start, not by key, so this scans every key's windows in
     * that time range and keeps {@code key}'s; prefer {@link #fetch(Object, long)} when the starts
     * are known.
     */
    KeyValueIterator<Windowed<K>, V> fetch(K key, long fromStart, long toStart);

    /**
     * The windows of every key with {@code fromStart <= start <= toStart}, ascending by start, then
     * by the key's serialized bytes (unsigned).
     */
    KeyValueIterator<Windowed<K>, V> fetchAll(long fromStart, long toStart);

    /** The length of every window, in milliseconds; positive. */
    long windowSize();
}
