package io.weir.internal.dsl;

import io.weir.dsl.GlobalTable;
import io.weir.internal.topology.GlobalTableSpec;
import io.weir.internal.topology.GraphBuilder;
import io.weir.serde.Serde;

/** A global table is its store's name; the runtime keeps the store. */
public final class GlobalTableImpl<K, V> implements GlobalTable<K, V> {

    private final GraphBuilder graph;
    private final String storeName;

    private GlobalTableImpl(GraphBuilder graph, String storeName) {
        this.graph = graph;
        this.storeName = storeName;
    }

    /** Declares the global table of {@code topic} in {@code graph}. */
    public static <K, V> GlobalTable<K, V> add(
            GraphBuilder graph, Serde<K> keySerde, Serde<V> valueSerde, String topic, String storeName) {
        graph.addGlobalTable(new GlobalTableSpec(storeName, topic, keySerde, valueSerde));
        return new GlobalTableImpl<>(graph, storeName);
    }

    @Override
    public String storeName() {
        return storeName;
    }

    GraphBuilder graph() {
        return graph;
    }
}
