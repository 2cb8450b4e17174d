package io.weir.internal.dsl;

import io.weir.common.KeyValue;
import io.weir.dsl.Branches;
import io.weir.dsl.GlobalTable;
import io.weir.dsl.GroupedStream;
import io.weir.dsl.JoinWindows;
import io.weir.dsl.RecordStream;
import io.weir.dsl.RecordTable;
import io.weir.dsl.TopicNameExtractor;
import io.weir.dsl.ValueJoiner;
import io.weir.errors.TopologyException;
import io.weir.internal.operator.join.JoinBuffer;
import io.weir.internal.operator.join.StreamJoinProcessor;
import io.weir.internal.operator.stateless.StatelessProcessors;
import io.weir.internal.operator.table.TableLookup;
import io.weir.internal.operator.table.TableProcessors;
import io.weir.internal.topology.GraphBuilder;
import io.weir.internal.topology.StoreSpec;
import io.weir.processor.ProcessorSupplier;
import io.weir.serde.Serde;
import java.util.List;
import java.util.Objects;
import java.util.function.BiConsumer;
import java.util.function.BiFunction;
import java.util.function.BiPredicate;
import java.util.function.Function;

/**
 * The DSL over a {@link GraphBuilder}: every call adds one node whose parent is this stream's
 * node. {@code keySerde}/{@code valueSerde} are null once a type may have changed.
 */
public final class RecordStreamImpl<K, V> implements RecordStream<K, V> {

    private final GraphBuilder graph;
    private final String node;
    private final Serde<K> keySerde;
    private final Serde<V> valueSerde;
    /** True when an earlier step may have changed keys: grouping must repartition. */
    private final boolean keyChanged;

    public RecordStreamImpl(GraphBuilder graph, String node, Serde<K> keySerde, Serde<V> valueSerde) {
        this(graph, node, keySerde, valueSerde, false);
    }

    RecordStreamImpl(GraphBuilder graph, String node, Serde<K> keySerde, Serde<V> valueSerde, boolean keyChanged) {
        this.graph = graph;
        this.node = node;
        this.keySerde = keySerde;
        this.valueSerde = valueSerde;
        this.keyChanged = keyChanged;
    }

    @Override
    public RecordStream<K, V> filter(BiPredicate<? super K, ? super V> predicate) {
        Objects.requireNonNull(predicate, "predicate");
        return add("filter", StatelessProcessors.filter(predicate, true), keySerde, valueSerde);
    }

    @Override
    public RecordStream<K, V> filterNot(BiPredicate<? super K, ? super V> predicate) {
        Objects.requireNonNull(predicate, "predicate");
        return add("filter-not", StatelessProcessors.filter(predicate, false), keySerde, valueSerde);
    }

    @Override
    public <KR, VR> RecordStream<KR, VR> map(BiFunction<? super K, ? super V, KeyValue<KR, VR>> mapper) {
        Objects.requireNonNull(mapper, "mapper");
        return add("map", StatelessProcessors.map(mapper), null, null, true);
    }

    @Override
    public <VR> RecordStream<K, VR> mapValues(Function<? super V, ? extends VR> mapper) {
        Objects.requireNonNull(mapper, "mapper");
        return add("map-values", StatelessProcessors.<K, V, VR>mapValues((k, v) -> mapper.apply(v)), keySerde, null);
    }

    @Override
    public <VR> RecordStream<K, VR> mapValues(BiFunction<? super K, ? super V, ? extends VR> mapper) {
        Objects.requireNonNull(mapper, "mapper");
        return add("map-values", StatelessProcessors.mapValues(mapper), keySerde, null);
    }

    @Override
    public <KR, VR> RecordStream<KR, VR> flatMap(
            BiFunction<? super K, ? super V, ? extends Iterable<KeyValue<KR, VR>>> mapper) {
        Objects.requireNonNull(mapper, "mapper");
        return add("flat-map", StatelessProcessors.flatMap(mapper), null, null, true);
    }

    @Override
    public <VR> RecordStream<K, VR> flatMapValues(Function<? super V, ? extends Iterable<? extends VR>> mapper) {
        Objects.requireNonNull(mapper, "mapper");
        return add(
                "flat-map-values",
                StatelessProcessors.<K, V, VR>flatMapValues((k, v) -> mapper.apply(v)),
                keySerde,
                null);
    }

    @Override
    public <VR> RecordStream<K, VR> flatMapValues(
            BiFunction<? super K, ? super V, ? extends Iterable<? extends VR>> mapper) {
        Objects.requireNonNull(mapper, "mapper");
        return add("flat-map-values", StatelessProcessors.flatMapValues(mapper), keySerde, null);
    }

    @Override
    public <KR> RecordStream<KR, V> selectKey(BiFunction<? super K, ? super V, ? extends KR> mapper) {
        Objects.requireNonNull(mapper, "mapper");
        return add("select-key", StatelessProcessors.selectKey(mapper), null, valueSerde, true);
    }

    @Override
    public RecordStream<K, V> peek(BiConsumer<? super K, ? super V> action) {
        Objects.requireNonNull(action, "action");
        return add("peek", StatelessProcessors.peek(action), keySerde, valueSerde);
    }

    @Override
    public Branches<K, V> split() {
        return new BranchesImpl<>(this);
    }

    @Override
    public RecordStream<K, V> merge(RecordStream<K, V> other) {
        RecordStreamImpl<K, V> o = (RecordStreamImpl<K, V>) Objects.requireNonNull(other, "other");
        if (o.graph != graph) {
            throw new TopologyException("cannot merge streams of two different topology builders");
        }
        String name = graph.newName("merge");
        graph.addProcessor(name, StatelessProcessors.passThrough(), List.of(node, o.node));
        return new RecordStreamImpl<>(
                graph,
                name,
                Objects.equals(keySerde, o.keySerde) ? keySerde : null,
                Objects.equals(valueSerde, o.valueSerde) ? valueSerde : null,
                keyChanged || o.keyChanged);
    }

    @Override
    public <KR, VR> RecordStream<KR, VR> process(
            ProcessorSupplier<? super K, ? super V, KR, VR> supplier, String name, String... stores) {
        graph.addProcessor(name, supplier, List.of(node), List.of(stores));
        return new RecordStreamImpl<>(graph, name, null, null, true);
    }

    @Override
    public GroupedStream<K, V> groupByKey() {
        return new GroupedStreamImpl<>(graph, node, keySerde, valueSerde, keyChanged);
    }

    @Override
    public <KR> GroupedStream<KR, V> groupBy(
            BiFunction<? super K, ? super V, ? extends KR> keySelector, Serde<KR> keySerde) {
        return groupBy(keySelector, keySerde, valueSerde);
    }

    @Override
    public <KR> GroupedStream<KR, V> groupBy(
            BiFunction<? super K, ? super V, ? extends KR> keySelector, Serde<KR> keySerde, Serde<V> valueSerde) {
        Objects.requireNonNull(keySelector, "keySelector");
        Objects.requireNonNull(keySerde, "keySerde");
        String name = graph.newName("group-by");
        graph.addProcessor(name, StatelessProcessors.selectKey(keySelector), List.of(node));
        return new GroupedStreamImpl<>(graph, name, keySerde, valueSerde, true);
    }

    @Override
    public RecordTable<K, V> toTable(String storeName) {
        return new GroupedStreamImpl<>(graph, node, keySerde, valueSerde, keyChanged).latest(storeName);
    }

    /**
     * {@code builder.table(...)}: this stream (a source of {@code topic}) as a table whose store
     * may use {@code topic} as its changelog, if the topic is compacted (decided at start-up).
     */
    public RecordTable<K, V> toTableOfSource(String storeName, String topic) {
        return new GroupedStreamImpl<>(graph, node, keySerde, valueSerde, keyChanged).latest(storeName, topic);
    }

    @Override
    public RecordTable<K, V> toTable(String storeName, io.weir.dsl.Versioned versioned) {
        return new GroupedStreamImpl<>(graph, node, keySerde, valueSerde, keyChanged)
                .latestVersioned(storeName, versioned);
    }

    @Override
    public <VT, VR> RecordStream<K, VR> join(
            RecordTable<K, VT> table, ValueJoiner<? super V, ? super VT, ? extends VR> joiner) {
        return joinTable(table, joiner, false);
    }

    @Override
    public <VT, VR> RecordStream<K, VR> join(
            RecordTable<K, VT> table,
            ValueJoiner<? super V, ? super VT, ? extends VR> joiner,
            io.weir.dsl.Joined joined) {
        return joinTable(table, joiner, false, Objects.requireNonNull(joined, "joined"));
    }

    @Override
    public <VT, VR> RecordStream<K, VR> leftJoin(
            RecordTable<K, VT> table,
            ValueJoiner<? super V, ? super VT, ? extends VR> joiner,
            io.weir.dsl.Joined joined) {
        return joinTable(table, joiner, true, Objects.requireNonNull(joined, "joined"));
    }

    @Override
    public <VT, VR> RecordStream<K, VR> leftJoin(
            RecordTable<K, VT> table, ValueJoiner<? super V, ? super VT, ? extends VR> joiner) {
        return joinTable(table, joiner, true);
    }

    private <VT, VR> RecordStream<K, VR> joinTable(
            RecordTable<K, VT> table, ValueJoiner<? super V, ? super VT, ? extends VR> joiner, boolean left) {
        return joinTable(table, joiner, left, null);
    }

    /** A stream-table join; as of each record's time when the table is versioned, after a grace with {@code joined}. */
    private <VT, VR> RecordStream<K, VR> joinTable(
            RecordTable<K, VT> table,
            ValueJoiner<? super V, ? super VT, ? extends VR> joiner,
            boolean left,
            io.weir.dsl.Joined joined) {
        RecordTableImpl<K, VT> t = (RecordTableImpl<K, VT>) Objects.requireNonNull(table, "table");
        Objects.requireNonNull(joiner, "joiner");
        if (t.graph() != graph) {
            throw new TopologyException("cannot join a table of another topology builder");
        }
        TableLookup<K, VT> lookup = t.lookup();
        if (joined != null) {
            VersionedJoins.checkGrace(t, joined, valueSerde);
        }
        String input = node;
        if (keyChanged) {
            String name = lookup.stores().get(0) + "-join";
            if (graph.hasNode(name + "-repartition-sink")) {
                throw new TopologyException("two streams with changed keys join table store '"
                        + lookup.stores().get(0)
                        + "': each would repartition through " + name + "-repartition; group or re-key one of them"
                        + " through a join of its own (merge the two streams first, then join once)");
            }
            if (keySerde == null || valueSerde == null) {
                throw new TopologyException("joining table store '"
                        + lookup.stores().get(0) + "' repartitions this"
                        + " stream by its changed key through " + name + "-repartition, which needs the stream's key"
                        + " and value serdes: call withSerdes(...) before the join");
            }
            input = GroupedStreamImpl.groupedInput(graph, node, keySerde, valueSerde, true, name);
        }
        if (t.versions() != null) {
            String name = VersionedJoins.add(graph, input, t.versions(), joiner, left, joined, keySerde, valueSerde);
            return new RecordStreamImpl<>(graph, name, keySerde, null);
        }
        String name = graph.newName(left ? "left-join" : "join");
        graph.addProcessor(
                name,
                TableProcessors.<K, V, K, VT, VR>streamTableJoin(lookup, (k, v) -> k, joiner, left),
                List.of(input),
                lookup.stores());
        return new RecordStreamImpl<>(graph, name, keySerde, null);
    }

    @Override
    public <KG, VG, VR> RecordStream<K, VR> join(
            GlobalTable<KG, VG> table,
            BiFunction<? super K, ? super V, ? extends KG> keySelector,
            ValueJoiner<? super V, ? super VG, ? extends VR> joiner) {
        return joinGlobal(table, keySelector, joiner, false);
    }

    @Override
    public <KG, VG, VR> RecordStream<K, VR> leftJoin(
            GlobalTable<KG, VG> table,
            BiFunction<? super K, ? super V, ? extends KG> keySelector,
            ValueJoiner<? super V, ? super VG, ? extends VR> joiner) {
        return joinGlobal(table, keySelector, joiner, true);
    }

    private <KG, VG, VR> RecordStream<K, VR> joinGlobal(
            GlobalTable<KG, VG> table,
            BiFunction<? super K, ? super V, ? extends KG> keySelector,
            ValueJoiner<? super V, ? super VG, ? extends VR> joiner,
            boolean left) {
        GlobalTableImpl<KG, VG> g = (GlobalTableImpl<KG, VG>) Objects.requireNonNull(table, "table");
        Objects.requireNonNull(keySelector, "keySelector");
        Objects.requireNonNull(joiner, "joiner");
        if (g.graph() != graph) {
            throw new TopologyException("cannot join a global table of another topology builder");
        }
        String name = graph.newName(left ? "global-left-join" : "global-join");
        // a record without a value selects no row (the selector would only see null)
        graph.addProcessor(
                name,
                TableProcessors.<K, V, KG, VG, VR>streamTableJoin(
                        TableLookup.<KG, VG>store(g.storeName()),
                        (K k, V v) -> v == null ? null : keySelector.apply(k, v),
                        joiner,
                        left),
                List.of(node),
                List.of(g.storeName()));
        return new RecordStreamImpl<>(graph, name, keySerde, null, keyChanged);
    }

    @Override
    public <VO, VR> RecordStream<K, VR> join(
            RecordStream<K, VO> other,
            ValueJoiner<? super V, ? super VO, ? extends VR> joiner,
            JoinWindows windows,
            String name) {
        return joinStream(other, joiner, windows, name, false, false);
    }

    @Override
    public <VO, VR> RecordStream<K, VR> leftJoin(
            RecordStream<K, VO> other,
            ValueJoiner<? super V, ? super VO, ? extends VR> joiner,
            JoinWindows windows,
            String name) {
        return joinStream(other, joiner, windows, name, true, false);
    }

    @Override
    public <VO, VR> RecordStream<K, VR> outerJoin(
            RecordStream<K, VO> other,
            ValueJoiner<? super V, ? super VO, ? extends VR> joiner,
            JoinWindows windows,
            String name) {
        return joinStream(other, joiner, windows, name, true, true);
    }

    /**
     * Adds a stream-stream join: each side (repartitioned if its key changed) feeds its
     * {@link StreamJoinProcessor} ({@code <name>-left-join}, {@code <name>-right-join}), both using the
     * two buffer stores, and both forward to the pass-through node {@code <name>}, the result.
     */
    private <VO, VR> RecordStream<K, VR> joinStream(
            RecordStream<K, VO> other,
            ValueJoiner<? super V, ? super VO, ? extends VR> joiner,
            JoinWindows windows,
            String name,
            boolean leftOuter,
            boolean rightOuter) {
        RecordStreamImpl<K, VO> o = (RecordStreamImpl<K, VO>) Objects.requireNonNull(other, "other");
        Objects.requireNonNull(joiner, "joiner");
        Objects.requireNonNull(windows, "windows");
        Objects.requireNonNull(name, "name");
        if (o.graph != graph) {
            throw new TopologyException("cannot join a stream of another topology builder");
        }
        String leftStore = name + "-left";
        String rightStore = name + "-right";
        Serde<K> keys = keySerde;
        if (keys == null || valueSerde == null || o.valueSerde == null) {
            throw new TopologyException("the stream-stream join '" + name + "' buffers both sides' records and needs"
                    + " the key serde and both value serdes: call withSerdes(...) on the stream whose types an earlier"
                    + " step changed");
        }
        long before = windows.before().toMillis();
        long after = windows.after().toMillis();
        long lateness = windows.allowedLateness().toMillis();
        String leftInput = GroupedStreamImpl.groupedInput(graph, node, keys, valueSerde, keyChanged, leftStore);
        String rightInput = GroupedStreamImpl.groupedInput(graph, o.node, keys, o.valueSerde, o.keyChanged, rightStore);
        graph.addStore(bufferStore(leftStore, keys, valueSerde, StreamJoinProcessor.retentionMs(after, lateness)));
        graph.addStore(bufferStore(rightStore, keys, o.valueSerde, StreamJoinProcessor.retentionMs(before, lateness)));
        List<String> stores = List.of(leftStore, rightStore);
        graph.addProcessor(
                leftStore + "-join",
                StreamJoinProcessor.<K, V, VO, VR>supplier(
                        name, leftStore, rightStore, before, after, lateness, leftOuter, rightOuter, joiner::apply),
                List.of(leftInput),
                stores);
        graph.addProcessor(
                rightStore + "-join",
                StreamJoinProcessor.<K, VO, V, VR>supplier(
                        name,
                        rightStore,
                        leftStore,
                        after,
                        before,
                        lateness,
                        rightOuter,
                        leftOuter,
                        (vo, v) -> joiner.apply(v, vo)),
                List.of(rightInput),
                stores);
        graph.addProcessor(name, StatelessProcessors.passThrough(), List.of(leftStore + "-join", rightStore + "-join"));
        return new RecordStreamImpl<>(graph, name, keys, null);
    }

    private static <K, V> StoreSpec bufferStore(String name, Serde<K> keySerde, Serde<V> valueSerde, long retentionMs) {
        return new StoreSpec(
                name,
                keySerde,
                new JoinBuffer.BufferSerde<>(valueSerde),
                true,
                true,
                null,
                StoreSpec.Kind.WINDOW,
                1,
                java.time.Duration.ofMillis(retentionMs));
    }

    @Override
    public RecordStream<K, V> withSerdes(Serde<K> keySerde, Serde<V> valueSerde) {
        return new RecordStreamImpl<>(
                graph,
                node,
                Objects.requireNonNull(keySerde, "keySerde"),
                Objects.requireNonNull(valueSerde, "valueSerde"),
                keyChanged);
    }

    @Override
    public void to(String topic) {
        to(topic, keySerde, valueSerde);
    }

    @Override
    public void to(String topic, Serde<K> keySerde, Serde<V> valueSerde) {
        Objects.requireNonNull(topic, "topic");
        graph.addSink(graph.newName("sink"), topic, null, keySerde, valueSerde, List.of(node));
    }

    @Override
    public void to(TopicNameExtractor<K, V> extractor) {
        to(extractor, keySerde, valueSerde);
    }

    @Override
    public void to(TopicNameExtractor<K, V> extractor, Serde<K> keySerde, Serde<V> valueSerde) {
        Objects.requireNonNull(extractor, "extractor");
        graph.addSink(graph.newName("sink"), null, extractor, keySerde, valueSerde, List.of(node));
    }

    GraphBuilder graph() {
        return graph;
    }

    String node() {
        return node;
    }

    RecordStreamImpl<K, V> child(String name) {
        return new RecordStreamImpl<>(graph, name, keySerde, valueSerde, keyChanged);
    }

    private <KR, VR> RecordStream<KR, VR> add(
            String kind, ProcessorSupplier<?, ?, ?, ?> supplier, Serde<KR> ks, Serde<VR> vs) {
        return add(kind, supplier, ks, vs, keyChanged);
    }

    private <KR, VR> RecordStream<KR, VR> add(
            String kind, ProcessorSupplier<?, ?, ?, ?> supplier, Serde<KR> ks, Serde<VR> vs, boolean changesKey) {
        String name = graph.newName(kind);
        graph.addProcessor(name, supplier, List.of(node));
        return new RecordStreamImpl<>(graph, name, ks, vs, changesKey);
    }
}
