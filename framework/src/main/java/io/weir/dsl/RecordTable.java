package io.weir.dsl;

/**
 * The latest value per key, kept in a state store: the result of an aggregation.
 *
 * <p>Updates go downstream once per key per commit interval, carrying the latest value (like
 * Kafka Streams with its record cache): a key updated a thousand times between two commits
 * produces one update. Under exactly-once those updates are committed atomically with the store's
 * changelog and the input offsets.
 */
public interface RecordTable<K, V> {

    /** The stream of this table's updates. */
    RecordStream<K, V> toStream();

    /** The name of the store holding the table, for queries. */
    String storeName();
}
