package io.weir.internal.dsl;

import io.weir.dsl.Aggregator;
import io.weir.dsl.GroupedStream;
import io.weir.dsl.RecordTable;
import io.weir.internal.topology.GraphBuilder;
import io.weir.internal.topology.StoreSpec;
import io.weir.serde.Serde;
import io.weir.serde.Serdes;
import java.util.List;
import java.util.Objects;
import java.util.function.BinaryOperator;
import java.util.function.Supplier;

/**
 * Adds an aggregation: when the key may have changed, a repartition sink and source through
 * {@code <store>-repartition} (which cuts the graph into two sub-topologies); then the store and
 * the aggregating processor {@code <store>-aggregate}. Every name derives from the store name,
 * so it is stable across code changes.
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
        return add(storeName, Serdes.longs(), AggregateProcessor.counting(storeName));
    }

    @Override
    public RecordTable<K, V> reduce(BinaryOperator<V> reducer, String storeName) {
        Objects.requireNonNull(reducer, "reducer");
        if (valueSerde == null) {
            throw new IllegalStateException("reduce into store '" + storeName + "' needs the value serde:"
                    + " an earlier step changed the value type; call withSerdes(...) before grouping");
        }
        return add(storeName, valueSerde, AggregateProcessor.reducing(storeName, reducer));
    }

    @Override
    public <VA> RecordTable<K, VA> aggregate(Supplier<VA> initializer, Aggregator<? super K, ? super V, VA> aggregator,
                                             Serde<VA> aggregateSerde, String storeName) {
        Objects.requireNonNull(initializer, "initializer");
        Objects.requireNonNull(aggregator, "aggregator");
        Objects.requireNonNull(aggregateSerde, "aggregateSerde");
        return add(storeName, aggregateSerde, AggregateProcessor.aggregating(storeName, initializer, aggregator));
    }

    private <VA> RecordTable<K, VA> add(String storeName, Serde<VA> aggregateSerde,
                                        io.weir.processor.ProcessorSupplier<K, V, K, VA> processor) {
        Objects.requireNonNull(storeName, "storeName");
        if (keySerde == null) {
            throw new IllegalStateException("the aggregation into store '" + storeName + "' needs the key serde:"
                    + " an earlier step changed the key type; pass it to groupBy or call withSerdes(...)");
        }
        String upstream = parent;
        if (repartition) {
            if (valueSerde == null) {
                throw new IllegalStateException("grouping for store '" + storeName + "' repartitions by the new key"
                        + " and needs the value serde: pass it to groupBy or call withSerdes(...)");
            }
            String topic = storeName + "-repartition";
            graph.addSink(storeName + "-repartition-sink", topic, null, keySerde, valueSerde, List.of(parent), true);
            graph.addSource(storeName + "-repartition-source", List.of(topic), null, keySerde, valueSerde, true);
            upstream = storeName + "-repartition-source";
        }
        graph.addStore(new StoreSpec(storeName, keySerde, aggregateSerde, true, true, null));
        String node = storeName + "-aggregate";
        graph.addProcessor(node, processor, List.of(upstream), List.of(storeName));
        return new RecordTableImpl<>(graph, node, keySerde, aggregateSerde, storeName);
    }
}
