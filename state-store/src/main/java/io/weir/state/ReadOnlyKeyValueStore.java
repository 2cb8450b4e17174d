package io.weir.state;

/**
 * Read access to a key-value store, as Kafka Streams' interface of the same name: what interactive
 * queries and processors that only look things up may use.
 *
 * <p>Guarantees: keys are ordered by the unsigned lexicographic order of their serialized bytes
 * (for fixed-width big-endian integers that is numeric order for non-negative values; for UTF-8
 * strings, code-point order). Range bounds are inclusive; a {@code null} bound is open. A range
 * whose {@code from} is after its {@code to} is empty. Every iterator returned must be closed.
 * Thread-safety and which writes a reader sees are said by the implementation.
 */
public interface ReadOnlyKeyValueStore<K, V> {

    /** The store's name, unique within an application. */
    String name();

    /** The value for {@code key}, or {@code null} if absent (or expired, for a store with a TTL). */
    V get(K key);

    /** Entries with {@code from <= key <= to}, ascending; a {@code null} bound is open. */
    KeyValueIterator<K, V> range(K from, K to);

    /** Entries with {@code from <= key <= to}, descending; a {@code null} bound is open. */
    KeyValueIterator<K, V> reverseRange(K from, K to);

    /**
     * Entries whose serialized key starts with {@code keyPrefix}, ascending. The prefix is raw key
     * bytes, so that a prefix of a composite key (e.g. a customer id before an order id) can be
     * given without a serializer for the partial key.
     */
    KeyValueIterator<K, V> prefixScan(byte[] keyPrefix);

    /** Every entry, ascending. */
    KeyValueIterator<K, V> all();

    /** Every entry, descending. */
    KeyValueIterator<K, V> reverseAll();

    /**
     * An estimate of the number of entries, cheap to compute: it may count overwritten, deleted
     * or expired entries not yet compacted away (RocksDB's {@code estimate-num-keys}). Never
     * negative.
     */
    long approximateNumEntries();
}
