package io.weir.dsl;

import io.weir.common.KeyValue;
import io.weir.serde.Serde;
import java.util.Optional;
import java.util.function.BiFunction;
import java.util.function.BiPredicate;
import java.util.function.Function;

/**
 * A table: the latest value per key, a changelog stream read as state. It comes from a topic
 * ({@code TopologyBuilder.table}), from a stream ({@link RecordStream#toTable}), from an
 * aggregation, or is derived from another table ({@link #filter}, {@link #mapValues}).
 *
 * <p>A table from a topic, a stream or an aggregation is kept in a state store of the name you
 * gave, queryable by it ({@link #storeName()}) and restored from its changelog. A derived table
 * has no store of its own: it is computed from its parent's store when read (by a join) and its
 * updates are computed from its parent's.
 *
 * <p>Updates go downstream once per key per commit interval, carrying the key's value then
 * (like Kafka Streams with its record cache): a key updated a thousand times between two commits
 * produces one update. A deleted key (a {@code null} value in the topic) is forwarded as a
 * tombstone. Under exactly-once those updates are committed atomically with the store's changelog
 * and the input offsets.
 */
public interface RecordTable<K, V> {

    /** The stream of this table's updates; a deletion is a record with a {@code null} value. */
    RecordStream<K, V> toStream();

    /**
     * The name of the store holding this table, for queries; empty for a table derived with
     * {@link #filter} or {@link #mapValues}, which has no store of its own.
     */
    Optional<String> storeName();

    /** The rows whose value satisfies {@code predicate}; a row that stops satisfying it is deleted. */
    RecordTable<K, V> filter(BiPredicate<? super K, ? super V> predicate);

    /** The rows whose value does not satisfy {@code predicate}. */
    RecordTable<K, V> filterNot(BiPredicate<? super K, ? super V> predicate);

    /** Each row's value through {@code mapper}; a {@code null} result deletes the row. */
    <VR> RecordTable<K, VR> mapValues(Function<? super V, ? extends VR> mapper);

    /** Each row's value through {@code mapper}, which also sees the key. */
    <VR> RecordTable<K, VR> mapValues(BiFunction<? super K, ? super V, ? extends VR> mapper);

    /**
     * Joins this table with {@code other} on the key: the result has a row for each key both have,
     * {@code joiner} over their values, and changes whenever either side's row of the key does (a
     * side's deleted row deletes the result's). The result is kept in the store {@code storeName}
     * (with its changelog), so that each update carries the value last forwarded. The two tables
     * must be co-partitioned (checked at start-up).
     */
    <VO, VR> RecordTable<K, VR> join(RecordTable<K, VO> other, ValueJoiner<? super V, ? super VO, ? extends VR> joiner,
                                     Serde<VR> resultSerde, String storeName);

    /** As {@link #join}, with a row for each key of this table; {@code joiner} sees {@code null} for no other row. */
    <VO, VR> RecordTable<K, VR> leftJoin(RecordTable<K, VO> other,
                                         ValueJoiner<? super V, ? super VO, ? extends VR> joiner, Serde<VR> resultSerde,
                                         String storeName);

    /** As {@link #join}, with a row for each key either table has; {@code joiner} sees {@code null} for a missing side. */
    <VO, VR> RecordTable<K, VR> outerJoin(RecordTable<K, VO> other,
                                          ValueJoiner<? super V, ? super VO, ? extends VR> joiner, Serde<VR> resultSerde,
                                          String storeName);

    /**
     * Groups the rows by a new key (and value) to aggregate them: see {@link GroupedTable}. The
     * serdes are those of the new key and value, for the repartition topic.
     */
    <KR, VR> GroupedTable<KR, VR> groupBy(BiFunction<? super K, ? super V, KeyValue<KR, VR>> selector,
                                          Serde<KR> keySerde, Serde<VR> valueSerde);
}
