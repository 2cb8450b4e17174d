package io.weir.internal.dsl;

import io.weir.dsl.RecordStream;
import io.weir.dsl.RecordTable;
import io.weir.internal.topology.GraphBuilder;
import io.weir.serde.Serde;

/** A table is the node of its aggregating processor; its stream is that node's output. */
final class RecordTableImpl<K, V> implements RecordTable<K, V> {

    private final GraphBuilder graph;
    private final String node;
    private final Serde<K> keySerde;
    private final Serde<V> valueSerde;
    private final String storeName;

    RecordTableImpl(GraphBuilder graph, String node, Serde<K> keySerde, Serde<V> valueSerde, String storeName) {
        this.graph = graph;
        this.node = node;
        this.keySerde = keySerde;
        this.valueSerde = valueSerde;
        this.storeName = storeName;
    }

    @Override
    public RecordStream<K, V> toStream() {
        return new RecordStreamImpl<>(graph, node, keySerde, valueSerde);
    }

    @Override
    public String storeName() {
        return storeName;
    }
}
