package io.weir.internal.dsl;

import io.weir.common.KeyValue;
import io.weir.dsl.Async;
import io.weir.dsl.AsyncFunction;
import io.weir.dsl.AsyncLookup;
import io.weir.dsl.Branches;
import io.weir.dsl.GlobalTable;
import io.weir.dsl.GroupedStream;
import io.weir.dsl.JoinWindows;
import io.weir.dsl.Produced;
import io.weir.dsl.RecordStream;
import io.weir.dsl.RecordTable;
import io.weir.dsl.Repartitioned;
import io.weir.dsl.TopicNameExtractor;
import io.weir.dsl.ValueJoiner;
import io.weir.errors.TopologyException;
import io.weir.internal.operator.async.AsyncStepSupplier;
import io.weir.internal.operator.stateless.StatelessProcessors;
import io.weir.internal.topology.GraphBuilder;
import io.weir.processor.AsyncProcessorSupplier;
import io.weir.processor.ProcessorSupplier;
import io.weir.serde.Serde;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.CompletionStage;
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
    public <VR> RecordStream<K, VR> mapValuesAsync(Function<? super V, ? extends CompletionStage<VR>> mapper) {
        Objects.requireNonNull(mapper, "mapper");
        return mapValuesAsync((k, v, call) -> mapper.apply(v), Async.defaults());
    }

    @Override
    public <VR> RecordStream<K, VR> mapValuesAsync(AsyncFunction<? super K, ? super V, VR> mapper, Async options) {
        Objects.requireNonNull(mapper, "mapper");
        String name = AsyncSteps.add(
                this,
                "map-values-async",
                options,
                List.of(),
                (n, ks, vs) -> AsyncStepSupplier.mapValues(n, mapper, options, ks, vs));
        return new RecordStreamImpl<>(graph, name, keySerde, null, keyChanged);
    }

    @Override
    public <VR> RecordStream<K, VR> flatMapValuesAsync(
            AsyncFunction<? super K, ? super V, ? extends Iterable<? extends VR>> mapper, Async options) {
        Objects.requireNonNull(mapper, "mapper");
        String name = AsyncSteps.add(
                this,
                "flat-map-values-async",
                options,
                List.of(),
                (n, ks, vs) -> AsyncStepSupplier.flatMapValues(n, mapper, options, ks, vs));
        return new RecordStreamImpl<>(graph, name, keySerde, null, keyChanged);
    }

    @Override
    public RecordStream<K, V> filterAsync(AsyncFunction<? super K, ? super V, Boolean> predicate, Async options) {
        Objects.requireNonNull(predicate, "predicate");
        String name = AsyncSteps.add(
                this,
                "filter-async",
                options,
                List.of(),
                (n, ks, vs) -> AsyncStepSupplier.filter(n, predicate, options, ks, vs));
        return new RecordStreamImpl<>(graph, name, keySerde, valueSerde, keyChanged);
    }

    @Override
    public <LK, T, VR> RecordStream<K, VR> enrichAsync(
            BiFunction<? super K, ? super V, ? extends LK> lookupKey,
            AsyncLookup<? super LK, T> lookup,
            ValueJoiner<? super V, ? super T, ? extends VR> joiner,
            Async options) {
        Objects.requireNonNull(lookupKey, "lookupKey");
        Objects.requireNonNull(lookup, "lookup");
        Objects.requireNonNull(joiner, "joiner");
        String name = AsyncSteps.add(
                this,
                AsyncSteps.ENRICH,
                options,
                List.of(),
                (n, ks, vs) -> AsyncStepSupplier.lookup(n, lookupKey, lookup, joiner, options, ks, vs));
        return new RecordStreamImpl<>(graph, name, keySerde, null, keyChanged);
    }

    @Override
    public <KR, VR, R> RecordStream<KR, VR> processAsync(
            AsyncProcessorSupplier<? super K, ? super V, KR, VR, R> supplier, Async options, String... stores) {
        Objects.requireNonNull(supplier, "supplier");
        Objects.requireNonNull(options, "options");
        if (options.name() == null) {
            throw new TopologyException("an async processor needs a stable name: Async.named(...)");
        }
        AsyncSteps.requireKeyOrder(options.name(), options, List.of(stores));
        String name = AsyncSteps.add(
                this,
                "process-async",
                options,
                List.of(stores),
                (n, ks, vs) -> AsyncStepSupplier.processor(n, supplier, options, ks, vs));
        return new RecordStreamImpl<>(graph, name, null, null, true);
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
        return StreamTableJoin.add(this, table, joiner, false, Objects.requireNonNull(joined, "joined"));
    }

    @Override
    public <VT, VR> RecordStream<K, VR> leftJoin(
            RecordTable<K, VT> table,
            ValueJoiner<? super V, ? super VT, ? extends VR> joiner,
            io.weir.dsl.Joined joined) {
        return StreamTableJoin.add(this, table, joiner, true, Objects.requireNonNull(joined, "joined"));
    }

    @Override
    public <VT, VR> RecordStream<K, VR> leftJoin(
            RecordTable<K, VT> table, ValueJoiner<? super V, ? super VT, ? extends VR> joiner) {
        return joinTable(table, joiner, true);
    }

    private <VT, VR> RecordStream<K, VR> joinTable(
            RecordTable<K, VT> table, ValueJoiner<? super V, ? super VT, ? extends VR> joiner, boolean left) {
        return StreamTableJoin.add(this, table, joiner, left, null);
    }

    @Override
    public <KG, VG, VR> RecordStream<K, VR> join(
            GlobalTable<KG, VG> table,
            BiFunction<? super K, ? super V, ? extends KG> keySelector,
            ValueJoiner<? super V, ? super VG, ? extends VR> joiner) {
        return StreamTableJoin.addGlobal(this, table, keySelector, joiner, false);
    }

    @Override
    public <KG, VG, VR> RecordStream<K, VR> leftJoin(
            GlobalTable<KG, VG> table,
            BiFunction<? super K, ? super V, ? extends KG> keySelector,
            ValueJoiner<? super V, ? super VG, ? extends VR> joiner) {
        return StreamTableJoin.addGlobal(this, table, keySelector, joiner, true);
    }

    @Override
    public <VO, VR> RecordStream<K, VR> join(
            RecordStream<K, VO> other,
            ValueJoiner<? super V, ? super VO, ? extends VR> joiner,
            JoinWindows windows,
            String name) {
        return StreamStreamJoin.add(this, other, joiner, windows, name, false, false);
    }

    @Override
    public <VO, VR> RecordStream<K, VR> leftJoin(
            RecordStream<K, VO> other,
            ValueJoiner<? super V, ? super VO, ? extends VR> joiner,
            JoinWindows windows,
            String name) {
        return StreamStreamJoin.add(this, other, joiner, windows, name, true, false);
    }

    @Override
    public <VO, VR> RecordStream<K, VR> outerJoin(
            RecordStream<K, VO> other,
            ValueJoiner<? super V, ? super VO, ? extends VR> joiner,
            JoinWindows windows,
            String name) {
        return StreamStreamJoin.add(this, other, joiner, windows, name, true, true);
    }

    @Override
    public RecordStream<K, V> repartition() {
        return repartition(Repartitioned.defaults());
    }

    @Override
    public RecordStream<K, V> repartition(Repartitioned<K, V> options) {
        return Repartition.add(this, options);
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

    @Override
    public void to(String topic, Produced<K, V> produced) {
        Objects.requireNonNull(topic, "topic");
        addSink(topic, null, Objects.requireNonNull(produced, "produced"));
    }

    @Override
    public void to(TopicNameExtractor<K, V> extractor, Produced<K, V> produced) {
        Objects.requireNonNull(extractor, "extractor");
        addSink(null, extractor, Objects.requireNonNull(produced, "produced"));
    }

    private void addSink(String topic, TopicNameExtractor<K, V> extractor, Produced<K, V> produced) {
        boolean own = produced.keySerde() != null;
        graph.addSink(
                graph.newName("sink"),
                topic,
                extractor,
                produced.partitioner(),
                own ? produced.keySerde() : keySerde,
                own ? produced.valueSerde() : valueSerde,
                List.of(node));
    }

    GraphBuilder graph() {
        return graph;
    }

    Serde<K> keySerde() {
        return keySerde;
    }

    Serde<V> valueSerde() {
        return valueSerde;
    }

    boolean keyChanged() {
        return keyChanged;
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
