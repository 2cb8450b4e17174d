package io.weir.internal.dsl;

import io.weir.dsl.Aggregator;
import io.weir.dsl.Emit;
import io.weir.dsl.GroupedStream;
import io.weir.dsl.RecordStream;
import io.weir.dsl.RecordTable;
import io.weir.errors.TopologyException;
import io.weir.internal.config.InternalTopic;
import io.weir.internal.operator.aggregate.AggregateProcessor;
import io.weir.internal.operator.table.TableChildren;
import io.weir.internal.operator.table.VersionedLookup;
import io.weir.internal.operator.table.VersionedTableProcessor;
import io.weir.internal.topology.GraphBuilder;
import io.weir.internal.topology.StoreSpec;
import io.weir.processor.ProcessorSupplier;
import io.weir.serde.Serde;
import io.weir.serde.Serdes;
import java.util.List;
import java.util.Objects;
import java.util.function.BinaryOperator;
import java.util.function.Supplier;

/**
 * Adds an aggregation: when the key may have changed, a repartition sink and source through
 * {@code <store>-repartition} (which cuts the graph into two sub-topologies); then the store (for
 * sessions, also {@code <store>-last-closed}) and the aggregating processor
 * {@code <store>-aggregate}. Every name derives from the store name, so it is stable across code
 * changes.
 */
final class GroupedStreamImpl<K, V> implements GroupedStream<K, V> {

    private final GraphBuilder graph;
    private final String parent;
    private final Serde<K> keySerde;
    private final Serde<V> valueSerde;
    private final boolean repartition;

    GroupedStreamImpl(GraphBuilder graph, String parent, Serde<K> keySerde, Serde<V> valueSerde, boolean repartition) {
        this.graph = graph;
        this.parent = parent;
        this.keySerde = keySerde;
        this.valueSerde = valueSerde;
        this.repartition = repartition;
    }

    @Override
    public RecordTable<K, Long> count(String storeName) {
        return add(storeName, Serdes.longs(), AggregateProcessor.countStep());
    }

    @Override
    public RecordTable<K, V> reduce(BinaryOperator<V> reducer, String storeName) {
        Objects.requireNonNull(reducer, "reducer");
        return add(storeName, requireValueSerde("reduce", storeName), AggregateProcessor.reduceStep(reducer));
    }

    @Override
    public <VA> RecordTable<K, VA> aggregate(
            Supplier<VA> initializer,
            Aggregator<? super K, ? super V, VA> aggregator,
            Serde<VA> aggregateSerde,
            String storeName) {
        Objects.requireNonNull(initializer, "initializer");
        Objects.requireNonNull(aggregator, "aggregator");
        Objects.requireNonNull(aggregateSerde, "aggregateSerde");
        return add(storeName, aggregateSerde, AggregateProcessor.aggregateStep(initializer, aggregator));
    }

    /** Converts this stream into a table: each record replaces its key's row (a null value deletes it). */
    RecordTable<K, V> latest(String storeName) {
        return latest(storeName, null);
    }

    /**
     * As {@link #latest(String)}; with {@code sourceTopic}, the topic this stream reads, which may
     * serve as the store's changelog (decided at start-up: see {@code SourceChangelogs}).
     */
    RecordTable<K, V> latest(String storeName, String sourceTopic) {
        return add(storeName, requireValueSerde("toTable", storeName), AggregateProcessor.latestStep(), sourceTopic);
    }

    /**
     * Converts this stream into a versioned table: the current values in {@code storeName}, the
     * history in {@code <storeName>-versions} (both with changelogs); see {@link VersionedTableProcessor}.
     */
    RecordTable<K, V> latestVersioned(String storeName, io.weir.dsl.Versioned versioned) {
        Objects.requireNonNull(versioned, "versioned");
        Serde<V> values = requireValueSerde("toTable", storeName);
        if (keySerde == null) {
            throw new TopologyException("the versioned table '" + storeName + "' needs the key serde: an earlier"
                    + " step changed the key type; call withSerdes(...) before toTable");
        }
        long retentionMs = versioned.historyRetention().toMillis();
        String history = VersionedLookup.historyStoreOf(storeName);
        TableChildren children = new TableChildren();
        String node = addAggregation(
                List.of(
                        new StoreSpec(storeName, keySerde, values, true, true, null),
                        new StoreSpec(history, Serdes.bytes(), Serdes.bytes(), true, true, null)),
                VersionedTableProcessor.supplier(storeName, keySerde, values, retentionMs, children));
        return RecordTableImpl.stored(graph, node, keySerde, values, storeName, children)
                .withVersions(VersionedLookup.history(history, keySerde, values, retentionMs));
    }

    private <VA> RecordTable<K, VA> add(
            String storeName, Serde<VA> aggregateSerde, AggregateProcessor.Step<K, V, VA> step) {
        return add(storeName, aggregateSerde, step, null);
    }

    private <VA> RecordTable<K, VA> add(
            String storeName, Serde<VA> aggregateSerde, AggregateProcessor.Step<K, V, VA> step, String sourceTopic) {
        TableChildren children = new TableChildren();
        StoreSpec spec =
                new StoreSpec(storeName, keySerde, aggregateSerde, true, true, null).withSourceTopic(sourceTopic);
        String node = addAggregation(List.of(spec), AggregateProcessor.supplier(storeName, step, children));
        return RecordTableImpl.stored(graph, node, keySerde, aggregateSerde, storeName, children);
    }

    /**
     * Adds an aggregation into {@code stores}, the first of which names it: the repartition when
     * the key may have changed, the stores, and the processor {@code <store>-aggregate} reading
     * from the grouped input and using the stores. Returns the processor's name. Shared by tables
     * and windowed aggregations (sessions keep a second store beside their session store).
     */
    String addAggregation(List<StoreSpec> stores, ProcessorSupplier<?, ?, ?, ?> processor) {
        return addAggregate(
                graph,
                groupedInput(
                        graph,
                        parent,
                        keySerde,
                        valueSerde,
                        repartition,
                        stores.get(0).name()),
                stores,
                processor);
    }

    /**
     * Adds {@code stores} and the processor {@code <first store>-aggregate} reading {@code input}
     * and using them; returns its name.
     */
    static String addAggregate(
            GraphBuilder graph, String input, List<StoreSpec> stores, ProcessorSupplier<?, ?, ?, ?> processor) {
        stores.forEach(graph::addStore);
        String node = stores.get(0).name() + "-aggregate";
        graph.addProcessor(
                node,
                processor,
                List.of(input),
                stores.stream().map(StoreSpec::name).toList());
        return node;
    }

    /**
     * The node an aggregation into {@code storeName} reads from: {@code parent}, or, when the key
     * may have changed ({@code repartition}), a repartition by the key through the internal topic
     * {@code <store>-repartition} (a sink and a source, which cut the graph into two
     * sub-topologies). Checks the serdes the aggregation needs.
     */
    static String groupedInput(
            GraphBuilder graph,
            String parent,
            Serde<?> keySerde,
            Serde<?> valueSerde,
            boolean repartition,
            String storeName) {
        Objects.requireNonNull(storeName, "storeName");
        if (keySerde == null) {
            throw new TopologyException("the aggregation into store '" + storeName + "' needs the key serde:"
                    + " an earlier step changed the key type; pass it to groupBy or call withSerdes(...)");
        }
        if (!repartition) {
            return parent;
        }
        if (valueSerde == null) {
            throw new TopologyException("grouping for store '" + storeName + "' repartitions by the new key"
                    + " and needs the value serde: pass it to groupBy or call withSerdes(...)");
        }
        String topic = InternalTopic.REPARTITION.relative(storeName);
        graph.addRepartitionSink(storeName + "-repartition-sink", topic, keySerde, valueSerde, List.of(parent));
        graph.addRepartitionSource(storeName + "-repartition-source", topic, keySerde, valueSerde);
        return storeName + "-repartition-source";
    }

    /** The value serde, or fails naming what needed it (reduce keeps values of the input's type). */
    Serde<V> requireValueSerde(String operation, String storeName) {
        if (valueSerde == null) {
            throw new TopologyException(operation + " into store '" + storeName + "' needs the value serde:"
                    + " an earlier step changed the value type; call withSerdes(...) before grouping");
        }
        return valueSerde;
    }

    Serde<K> keySerde() {
        return keySerde;
    }

    /** A stream of the results of aggregation node {@code node}. */
    <KR, VR> RecordStream<KR, VR> resultStream(String node, Serde<KR> resultKeySerde, Serde<VR> resultValueSerde) {
        // results stay in the partition of their grouping key, so grouping them again needs no repartition
        return new RecordStreamImpl<>(graph, node, resultKeySerde, resultValueSerde);
    }

    @Override
    public io.weir.dsl.WindowedStream<K, V> windowedBy(io.weir.dsl.TimeWindows windows) {
        return new TimeWindowedStreamImpl<>(this, Objects.requireNonNull(windows, "windows"), Emit.atWatermark());
    }

    @Override
    public io.weir.dsl.CountWindowedStream<K, V> windowedBy(io.weir.dsl.CountWindows windows) {
        return new CountWindowedStreamImpl<>(this, windows);
    }

    @Override
    public io.weir.dsl.SessionWindowedStream<K, V> windowedBy(io.weir.dsl.SessionWindows windows) {
        return new SessionWindowedStreamImpl<>(this, Objects.requireNonNull(windows, "windows"), Emit.atWatermark());
    }
}
