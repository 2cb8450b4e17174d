package io.weir.internal.dsl;

import io.weir.dsl.RecordStream;
import io.weir.dsl.Repartitioned;
import io.weir.errors.TopologyException;
import io.weir.internal.config.InternalTopic;
import io.weir.internal.topology.GraphBuilder;
import io.weir.serde.Serde;
import java.util.List;
import java.util.Objects;

/**
 * The graph of {@link RecordStream#repartition}: a sink into {@code <name>-repartition} and the
 * source reading it, which cut the graph into two sub-topologies, as the repartitions before a
 * grouping or a join do; here the user names the topic, fixes its partition count and chooses
 * the partitioner.
 */
final class Repartition {

    private Repartition() {}

    static <K, V> RecordStream<K, V> add(RecordStreamImpl<K, V> self, Repartitioned<K, V> options) {
        Objects.requireNonNull(options, "options");
        GraphBuilder graph = self.graph();
        String name = options.name() != null ? options.name() : graph.newName("repartition");
        Serde<K> keySerde = options.keySerde() != null ? options.keySerde() : self.keySerde();
        Serde<V> valueSerde = options.valueSerde() != null ? options.valueSerde() : self.valueSerde();
        if (keySerde == null || valueSerde == null) {
            throw new TopologyException("repartition '" + name + "' writes the stream to a topic and needs its key and"
                    + " value serdes: an earlier step changed a type; pass them with Repartitioned.with(...) or call"
                    + " withSerdes(...) first");
        }
        String topic = InternalTopic.REPARTITION.relative(name);
        graph.addRepartitionSink(
                name + "-repartition-sink", topic, options.partitioner(), keySerde, valueSerde, List.of(self.node()));
        graph.addRepartitionSource(name + "-repartition-source", topic, keySerde, valueSerde, options.partitions());
        // read back by the key it was partitioned by: grouping it needs no further repartition
        return new RecordStreamImpl<>(graph, name + "-repartition-source", keySerde, valueSerde);
    }
}
