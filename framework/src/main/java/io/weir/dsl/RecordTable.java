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
    <VO, VR> RecordTable<K, VR> join(
            RecordTable<K, VO> other,
            ValueJoiner<? super V, ? super VO, ? extends VR> joiner,
            Serde<VR> resultSerde,
            String storeName);

    /** As {@link #join}, with a row for each key of this table; {@code joiner} sees {@code null} for no other row. */
    <VO, VR> RecordTable<K, VR> leftJoin(
            RecordTable<K, VO> other,
            ValueJoiner<? super V, ? super VO, ? extends VR> joiner,
            Serde<VR> resultSerde,
            String storeName);

    /** As {@link #join}, with a row for each key either table has; {@code joiner} sees {@code null} for a missing side. */
    <VO, VR> RecordTable<K, VR> outerJoin(
            RecordTable<K, VO> other,
            ValueJoiner<? super V, ? super VO, ? extends VR> joiner,
            Serde<VR> resultSerde,
            String storeName);

    /**
     * Groups the rows by a new key (and value) to aggregate them: see {@link GroupedTable}. The
     * serdes are those of the new key and value, for the repartition topic.
     */
    <KR, VR> GroupedTable<KR, VR> groupBy(
            BiFunction<? super K, ? super V, KeyValue<KR, VR>> selector, Serde<KR> keySerde, Serde<VR> valueSerde);

    /**
     * Joins this table with {@code other} on a foreign key: each row of this table joins the row of
     * {@code other} whose key {@code foreignKey} extracts from its value. The result has a row for
     * each row of this table whose foreign key {@code other} has, keyed like this table,
     * {@code joiner} over the two values, and is kept in the store {@code storeName} (with its
     * changelog).
     *
     * <p>Guarantees, once the records in flight are processed: the result of a key is
     * {@code joiner(value, row)} for its current value and the current row of its current foreign
     * key, whichever side changed last. A row of this table that moves to another foreign key
     * joins only the new one (answers concerning the old one are dropped); a deleted row deletes
     * its result (a tombstone downstream, only if it had one); a deleted or missing {@code other}
     * row deletes (or never gives) the result; a change of an {@code other} row recomputes the
     * result of every row referring to it. Updates carry the value last forwarded, as
     * {@link #join(RecordTable, ValueJoiner, Serde, String)}'s do.
     *
     * <p>The tables need not be co-partitioned: the rows' subscriptions travel to {@code other}'s
     * partitions by foreign key through {@code <app>-<storeName>-fk-subscription-repartition},
     * the answers back by this table's key through {@code <app>-<storeName>-fk-response-repartition};
     * {@code other}'s side keeps the subscriptions in the store {@code <storeName>-fk-subscriptions}.
     * A {@code null} foreign key joins no row. Needs this table's value serde and {@code other}'s
     * key and value serdes (a table made by {@code mapValues} has no value serde; fails at build
     * time naming what is missing).
     */
    <KO, VO, VR> RecordTable<K, VR> join(
            RecordTable<KO, VO> other,
            Function<? super V, ? extends KO> foreignKey,
            ValueJoiner<? super V, ? super VO, ? extends VR> joiner,
            Serde<VR> resultSerde,
            String storeName);

    /** As {@link #join(RecordTable, Function, ValueJoiner, Serde, String)}, with a foreign key from the key and value. */
    <KO, VO, VR> RecordTable<K, VR> join(
            RecordTable<KO, VO> other,
            BiFunction<? super K, ? super V, ? extends KO> foreignKey,
            ValueJoiner<? super V, ? super VO, ? extends VR> joiner,
            Serde<VR> resultSerde,
            String storeName);

    /**
     * As {@link #join(RecordTable, Function, ValueJoiner, Serde, String)}, with a row for each row of
     * this table: {@code joiner} sees {@code null} when {@code other} has no row for its foreign key,
     * or when the foreign key is {@code null}.
     */
    <KO, VO, VR> RecordTable<K, VR> leftJoin(
            RecordTable<KO, VO> other,
            Function<? super V, ? extends KO> foreignKey,
            ValueJoiner<? super V, ? super VO, ? extends VR> joiner,
            Serde<VR> resultSerde,
            String storeName);

    /** As {@link #leftJoin(RecordTable, Function, ValueJoiner, Serde, String)}, with a foreign key from the key and value. */
    <KO, VO, VR> RecordTable<K, VR> leftJoin(
            RecordTable<KO, VO> other,
            BiFunction<? super K, ? super V, ? extends KO> foreignKey,
            ValueJoiner<? super V, ? super VO, ? extends VR> joiner,
            Serde<VR> resultSerde,
            String storeName);
}
