package io.weir.internal.dsl;

import io.weir.dsl.Aggregator;
import io.weir.dsl.GroupedTable;
import io.weir.dsl.RecordTable;
import io.weir.internal.operator.aggregate.AggregateProcessor;
import io.weir.internal.operator.table.Change;
import io.weir.internal.operator.table.ChangeSerde;
import io.weir.internal.operator.table.TableChildren;
import io.weir.internal.topology.GraphBuilder;
import io.weir.internal.topology.StoreSpec;
import io.weir.serde.Serde;
import io.weir.serde.Serdes;
import java.util.Objects;
import java.util.function.BinaryOperator;
import java.util.function.Supplier;

/**
 * Adds a table aggregation: the re-keyed changes go through {@code <store>-repartition} (in
 * {@link ChangeSerde}'s format), then into the aggregate processor {@code <store>-aggregate},
 * whose step subtracts a change's old value and adds its new one, as Kafka Streams'
 * {@code KTableAggregate} and {@code KTableReduce} do.
 */
final class GroupedTableImpl<K, V> implements GroupedTable<K, V> {

    private final GraphBuilder graph;
    private final String parent;
    private final Serde<K> keySerde;
    private final Serde<V> valueSerde;

    GroupedTableImpl(GraphBuilder graph, String parent, Serde<K> keySerde, Serde<V> valueSerde) {
        this.graph = graph;
        this.parent = parent;
        this.keySerde = keySerde;
        this.valueSerde = valueSerde;
    }

    @Override
    public RecordTable<K, Long> count(String storeName) {
        return aggregate(() -> 0L, (k, v, n) -> n + 1, (k, v, n) -> n - 1, Serdes.longs(), storeName);
    }

    @Override
    public RecordTable<K, V> reduce(BinaryOperator<V> adder, BinaryOperator<V> subtractor, String storeName) {
        Objects.requireNonNull(adder, "adder");
        Objects.requireNonNull(subtractor, "subtractor");
        return add(storeName, valueSerde, (k, change, current) -> {
            V acc = change.oldValue() != null && current != null
                    ? subtractor.apply(current, change.oldValue())
                    : current;
            if (change.newValue() != null) {
                acc = acc == null ? change.newValue() : adder.apply(acc, change.newValue());
            }
            return acc;
        });
    }

    @Override
    public <VA> RecordTable<K, VA> aggregate(
            Supplier<VA> initializer,
            Aggregator<? super K, ? super V, VA> adder,
            Aggregator<? super K, ? super V, VA> subtractor,
            Serde<VA> aggregateSerde,
            String storeName) {
        Objects.requireNonNull(initializer, "initializer");
        Objects.requireNonNull(adder, "adder");
        Objects.requireNonNull(subtractor, "subtractor");
        Objects.requireNonNull(aggregateSerde, "aggregateSerde");
        return add(storeName, aggregateSerde, (k, change, current) -> {
            VA acc = change.oldValue() != null && current != null
                    ? subtractor.apply(k, change.oldValue(), current)
                    : current;
            if (change.newValue() != null) {
                acc = adder.apply(k, change.newValue(), acc == null ? initializer.get() : acc);
            }
            return acc;
        });
    }

    private <VA> RecordTable<K, VA> add(
            String storeName, Serde<VA> aggregateSerde, AggregateProcessor.Step<K, Change<V>, VA> step) {
        String input =
                GroupedStreamImpl.groupedInput(graph, parent, keySerde, new ChangeSerde<>(valueSerde), true, storeName);
        TableChildren children = new TableChildren();
        String node = GroupedStreamImpl.addAggregate(
                graph,
                input,
                java.util.List.of(new StoreSpec(storeName, keySerde, aggregateSerde, true, true, null)),
                AggregateProcessor.supplier(storeName, step, children));
        return RecordTableImpl.stored(graph, node, keySerde, aggregateSerde, storeName, children);
    }
}
