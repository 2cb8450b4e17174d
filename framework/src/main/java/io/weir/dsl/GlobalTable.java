package io.weir.dsl;

/**
 * A table of every partition of a topic, kept in full on every instance: for reference data
 * (campaigns, currencies, products) that streams of any partitioning join without a repartition.
 * Declared with {@code TopologyBuilder.globalTable}; joined with
 * {@link RecordStream#join(GlobalTable, java.util.function.BiFunction, ValueJoiner)}.
 *
 * <p>Guarantees: an instance reads the whole topic, to its read_committed end, before its stream
 * threads start, so no stream record is joined with a table still loading; then a thread of its
 * own follows the topic, and a stream record sees the updates that thread has applied when the
 * record is processed (global tables are not part of a task's transaction: a join reads the
 * table's latest value, as with Kafka Streams' {@code GlobalKTable}). A record with a {@code null}
 * key, or one the serdes cannot read, goes to the dead-letter topic; a tombstone deletes the row.
 * The table is kept in memory and read in full at every start.
 */
public interface GlobalTable<K, V> {

    /** The name of the store holding the table. */
    String storeName();
}
