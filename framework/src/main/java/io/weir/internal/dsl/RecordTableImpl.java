package io.weir.internal.dsl;

import io.weir.common.KeyValue;
import io.weir.dsl.GroupedTable;
import io.weir.dsl.RecordStream;
import io.weir.dsl.RecordTable;
import io.weir.dsl.ValueJoiner;
import io.weir.errors.TopologyException;
import io.weir.internal.operator.table.Change;
import io.weir.internal.operator.table.TableChildren;
import io.weir.internal.operator.table.TableLookup;
import io.weir.internal.operator.table.TableProcessors;
import io.weir.internal.operator.table.VersionedLookup;
import io.weir.internal.topology.GraphBuilder;
import io.weir.internal.topology.StoreSpec;
import io.weir.serde.Serde;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.function.BiFunction;
import java.util.function.BiPredicate;
import java.util.function.Function;

/**
 * A table is the node that forwards its {@link Change}s, with how to read its current values
 * ({@link TableLookup}) and, when it has one, the store that holds it.
 */
final class RecordTableImpl<K, V> implements RecordTable<K, V> {

    private final GraphBuilder graph;
    private final String node;
    private final Serde<K> keySerde;
    private final Serde<V> valueSerde;
    private final TableLookup<K, V> lookup;
    /** Null for a derived table. */
    private final String storeName;
    /** Shared with the node's processor: which children take changes. */
    private final TableChildren children;
    /** How to read values as of a time, for a versioned table (and tables derived from one); else null. */
    private VersionedLookup<K, V> versions;

    private RecordTableImpl(
            GraphBuilder graph,
            String node,
            Serde<K> keySerde,
            Serde<V> valueSerde,
            TableLookup<K, V> lookup,
            String storeName,
            TableChildren children) {
        this.graph = graph;
        this.node = node;
        this.keySerde = keySerde;
        this.valueSerde = valueSerde;
        this.lookup = lookup;
        this.storeName = storeName;
        this.children = children;
    }

    /**
     * The table kept in {@code storeName} by node {@code node} (a store-writing processor made
     * with {@code children}).
     */
    static <K, V> RecordTableImpl<K, V> stored(
            GraphBuilder graph,
            String node,
            Serde<K> keySerde,
            Serde<V> valueSerde,
            String storeName,
            TableChildren children) {
        return new RecordTableImpl<>(
                graph, node, keySerde, valueSerde, TableLookup.store(storeName), storeName, children);
    }

    /** This table, read as of a time through {@code versions}: a versioned table. */
    RecordTableImpl<K, V> withVersions(VersionedLookup<K, V> versions) {
        this.versions = versions;
        return this;
    }

    /** How to read this table as of a time; {@code null} unless it is versioned (or derived from one). */
    VersionedLookup<K, V> versions() {
        return versions;
    }

    /** The table's node forwards new values to every child not registered as taking changes. */
    @Override
    public RecordStream<K, V> toStream() {
        return new RecordStreamImpl<>(graph, node, keySerde, valueSerde);
    }

    @Override
    public Optional<String> storeName() {
        return Optional.ofNullable(storeName);
    }

    @Override
    public RecordTable<K, V> filter(BiPredicate<? super K, ? super V> predicate) {
        Objects.requireNonNull(predicate, "predicate");
        return derive("table-filter", (k, v) -> predicate.test(k, v) ? v : null, valueSerde);
    }

    @Override
    public RecordTable<K, V> filterNot(BiPredicate<? super K, ? super V> predicate) {
        Objects.requireNonNull(predicate, "predicate");
        return derive("table-filter-not", (k, v) -> predicate.test(k, v) ? null : v, valueSerde);
    }

    @Override
    public <VR> RecordTable<K, VR> mapValues(Function<? super V, ? extends VR> mapper) {
        Objects.requireNonNull(mapper, "mapper");
        return derive("table-map-values", (k, v) -> mapper.apply(v), null);
    }

    @Override
    public <VR> RecordTable<K, VR> mapValues(BiFunction<? super K, ? super V, ? extends VR> mapper) {
        Objects.requireNonNull(mapper, "mapper");
        return derive("table-map-values", mapper, null);
    }

    @Override
    public <KR, VR> GroupedTable<KR, VR> groupBy(
            BiFunction<? super K, ? super V, KeyValue<KR, VR>> selector, Serde<KR> keySerde, Serde<VR> valueSerde) {
        Objects.requireNonNull(selector, "selector");
        Objects.requireNonNull(keySerde, "keySerde");
        Objects.requireNonNull(valueSerde, "valueSerde");
        String name = graph.newName("table-group-by");
        graph.addProcessor(name, TableProcessors.regroup(selector), List.of(node));
        children.addChangeChild(name);
        return new GroupedTableImpl<>(graph, name, keySerde, valueSerde);
    }

    @Override
    public <VO, VR> RecordTable<K, VR> join(
            RecordTable<K, VO> other,
            ValueJoiner<? super V, ? super VO, ? extends VR> joiner,
            Serde<VR> resultSerde,
            String storeName) {
        return joinTable(other, joiner, resultSerde, storeName, TableProcessors.JoinKind.INNER);
    }

    @Override
    public <VO, VR> RecordTable<K, VR> leftJoin(
            RecordTable<K, VO> other,
            ValueJoiner<? super V, ? super VO, ? extends VR> joiner,
            Serde<VR> resultSerde,
            String storeName) {
        return joinTable(other, joiner, resultSerde, storeName, TableProcessors.JoinKind.LEFT);
    }

    @Override
    public <VO, VR> RecordTable<K, VR> outerJoin(
            RecordTable<K, VO> other,
            ValueJoiner<? super V, ? super VO, ? extends VR> joiner,
            Serde<VR> resultSerde,
            String storeName) {
        return joinTable(other, joiner, resultSerde, storeName, TableProcessors.JoinKind.OUTER);
    }

    private <VO, VR> RecordTable<K, VR> joinTable(
            RecordTable<K, VO> other,
            ValueJoiner<? super V, ? super VO, ? extends VR> joiner,
            Serde<VR> resultSerde,
            String storeName,
            TableProcessors.JoinKind kind) {
        RecordTableImpl<K, VO> o = joinable(other, joiner, resultSerde, storeName);
        graph.addStore(new StoreSpec(storeName, keySerde, resultSerde, true, true, null));
        List<String> stores = new ArrayList<>(List.of(storeName));
        stores.addAll(lookup.stores());
        o.lookup.stores().stream().filter(s -> !stores.contains(s)).forEach(stores::add);
        String name = storeName + "-join";
        TableChildren joinChildren = new TableChildren();
        graph.addProcessor(
                name,
                TableProcessors.tableTableJoin(lookup, o.lookup, joiner, kind, storeName, joinChildren),
                List.of(node, o.node),
                stores);
        children.addChangeChild(name);
        o.children.addChangeChild(name);
        return stored(graph, name, keySerde, resultSerde, storeName, joinChildren);
    }

    /** {@code other}, checked to be a table this one can join: of the same builder, the join's arguments given. */
    <KO, VO> RecordTableImpl<KO, VO> joinable(
            RecordTable<KO, VO> other, Object joiner, Serde<?> resultSerde, String storeName) {
        RecordTableImpl<KO, VO> o = (RecordTableImpl<KO, VO>) Objects.requireNonNull(other, "other");
        Objects.requireNonNull(joiner, "joiner");
        Objects.requireNonNull(resultSerde, "resultSerde");
        Objects.requireNonNull(storeName, "storeName");
        if (o.graph != graph) {
            throw new TopologyException("cannot join a table of another topology builder");
        }
        return o;
    }

    private <VR> RecordTable<K, VR> derive(
            String kind, BiFunction<? super K, ? super V, ? extends VR> view, Serde<VR> derivedValueSerde) {
        String name = graph.newName(kind);
        TableChildren derivedChildren = new TableChildren();
        graph.addProcessor(name, TableProcessors.view(view, derivedChildren), List.of(node));
        children.addChangeChild(name);
        RecordTableImpl<K, VR> derived = new RecordTableImpl<>(
                graph, name, keySerde, derivedValueSerde, lookup.through(view), null, derivedChildren);
        return versions == null ? derived : derived.withVersions(versions.through(view));
    }

    GraphBuilder graph() {
        return graph;
    }

    TableLookup<K, V> lookup() {
        return lookup;
    }

    String node() {
        return node;
    }

    TableChildren children() {
        return children;
    }

    Serde<K> keySerde() {
        return keySerde;
    }

    /** Null for a table made by {@code mapValues}. */
    Serde<V> valueSerde() {
        return valueSerde;
    }

    @Override
    public <KO, VO, VR> RecordTable<K, VR> join(
            RecordTable<KO, VO> other,
            Function<? super V, ? extends KO> foreignKey,
            ValueJoiner<? super V, ? super VO, ? extends VR> joiner,
            Serde<VR> resultSerde,
            String storeName) {
        return join(other, byValue(foreignKey), joiner, resultSerde, storeName);
    }

    @Override
    public <KO, VO, VR> RecordTable<K, VR> join(
            RecordTable<KO, VO> other,
            BiFunction<? super K, ? super V, ? extends KO> foreignKey,
            ValueJoiner<? super V, ? super VO, ? extends VR> joiner,
            Serde<VR> resultSerde,
            String storeName) {
        return ForeignKeyJoin.add(
                this, other, foreignKey, joiner, resultSerde, storeName, TableProcessors.JoinKind.INNER);
    }

    @Override
    public <KO, VO, VR> RecordTable<K, VR> leftJoin(
            RecordTable<KO, VO> other,
            Function<? super V, ? extends KO> foreignKey,
            ValueJoiner<? super V, ? super VO, ? extends VR> joiner,
            Serde<VR> resultSerde,
            String storeName) {
        return leftJoin(other, byValue(foreignKey), joiner, resultSerde, storeName);
    }

    @Override
    public <KO, VO, VR> RecordTable<K, VR> leftJoin(
            RecordTable<KO, VO> other,
            BiFunction<? super K, ? super V, ? extends KO> foreignKey,
            ValueJoiner<? super V, ? super VO, ? extends VR> joiner,
            Serde<VR> resultSerde,
            String storeName) {
        return ForeignKeyJoin.add(
                this, other, foreignKey, joiner, resultSerde, storeName, TableProcessors.JoinKind.LEFT);
    }

    /** A foreign key read from the value alone, as a key-and-value one. */
    private static <K, V, KO> BiFunction<K, V, KO> byValue(Function<? super V, ? extends KO> foreignKey) {
        Objects.requireNonNull(foreignKey, "foreignKey");
        return (k, v) -> foreignKey.apply(v);
    }
}
