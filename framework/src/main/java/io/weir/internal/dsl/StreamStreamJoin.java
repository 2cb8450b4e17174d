package io.weir.internal.dsl;

import io.weir.dsl.JoinWindows;
import io.weir.dsl.RecordStream;
import io.weir.dsl.ValueJoiner;
import io.weir.errors.TopologyException;
import io.weir.internal.operator.join.JoinBuffer;
import io.weir.internal.operator.join.StreamJoinProcessor;
import io.weir.internal.operator.stateless.StatelessProcessors;
import io.weir.internal.topology.GraphBuilder;
import io.weir.internal.topology.StoreSpec;
import io.weir.serde.Serde;
import java.util.List;
import java.util.Objects;

/**
 * The graph of a windowed stream-stream join ({@code join}, {@code leftJoin} and {@code outerJoin}
 * of two {@link RecordStream}s): both sides buffered in window stores, each side's records joined
 * with the other side's buffer.
 */
final class StreamStreamJoin {

    private StreamStreamJoin() {}

    /**
     * Adds a stream-stream join of {@code self} and {@code other}: each side (repartitioned if its key changed) feeds its
     * {@link StreamJoinProcessor} ({@code <name>-left-join}, {@code <name>-right-join}), both using the
     * two buffer stores, and both forward to the pass-through node {@code <name>}, the result.
     */
    static <K, V, VO, VR> RecordStream<K, VR> add(
            RecordStreamImpl<K, V> self,
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
        GraphBuilder graph = self.graph();
        if (o.graph() != graph) {
            throw new TopologyException("cannot join a stream of another topology builder");
        }
        String leftStore = name + "-left";
        String rightStore = name + "-right";
        Serde<K> keys = self.keySerde();
        Serde<V> valueSerde = self.valueSerde();
        if (keys == null || valueSerde == null || o.valueSerde() == null) {
            throw new TopologyException("the stream-stream join '" + name + "' buffers both sides' records and needs"
                    + " the key serde and both value serdes: call withSerdes(...) on the stream whose types an earlier"
                    + " step changed");
        }
        StreamJoinProcessor.Side left = new StreamJoinProcessor.Side(
                name,
                leftStore,
                rightStore,
                windows.before().toMillis(),
                windows.after().toMillis(),
                windows.allowedLateness().toMillis(),
                leftOuter,
                rightOuter);
        StreamJoinProcessor.Side right = left.mirrored();
        String leftInput =
                GroupedStreamImpl.groupedInput(graph, self.node(), keys, valueSerde, self.keyChanged(), leftStore);
        String rightInput =
                GroupedStreamImpl.groupedInput(graph, o.node(), keys, o.valueSerde(), o.keyChanged(), rightStore);
        graph.addStore(bufferStore(leftStore, keys, valueSerde, left.bufferRetentionMs()));
        graph.addStore(bufferStore(rightStore, keys, o.valueSerde(), right.bufferRetentionMs()));
        List<String> stores = List.of(leftStore, rightStore);
        graph.addProcessor(
                leftStore + "-join",
                StreamJoinProcessor.<K, V, VO, VR>supplier(left, joiner::apply),
                List.of(leftInput),
                stores);
        graph.addProcessor(
                rightStore + "-join",
                StreamJoinProcessor.<K, VO, V, VR>supplier(right, (vo, v) -> joiner.apply(v, vo)),
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
}
