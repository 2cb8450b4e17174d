package io.weir.internal.dsl;

import io.weir.dsl.GlobalTable;
import io.weir.dsl.RecordStream;
import io.weir.dsl.RecordTable;
import io.weir.dsl.ValueJoiner;
import io.weir.errors.TopologyException;
import io.weir.internal.operator.table.TableLookup;
import io.weir.internal.operator.table.TableProcessors;
import io.weir.internal.topology.GraphBuilder;
import io.weir.serde.Serde;
import java.util.List;
import java.util.Objects;
import java.util.function.BiFunction;

/**
 * The graph of a stream-table join ({@code join} and {@code leftJoin} of a {@link RecordStream}
 * with a {@link RecordTable} or a {@link GlobalTable}): each record looks its row up in the
 * table's store.
 */
final class StreamTableJoin {

    private StreamTableJoin() {}

    /** A stream-table join; as of each record's time when the table is versioned, after a grace with {@code joined}. */
    static <K, V, VT, VR> RecordStream<K, VR> add(
            RecordStreamImpl<K, V> self,
            RecordTable<K, VT> table,
            ValueJoiner<? super V, ? super VT, ? extends VR> joiner,
            boolean left,
            io.weir.dsl.Joined joined) {
        RecordTableImpl<K, VT> t = (RecordTableImpl<K, VT>) Objects.requireNonNull(table, "table");
        Objects.requireNonNull(joiner, "joiner");
        GraphBuilder graph = self.graph();
        Serde<K> keySerde = self.keySerde();
        Serde<V> valueSerde = self.valueSerde();
        if (t.graph() != graph) {
            throw new TopologyException("cannot join a table of another topology builder");
        }
        TableLookup<K, VT> lookup = t.lookup();
        if (joined != null) {
            VersionedJoins.checkGrace(t, joined, valueSerde);
        }
        String input = self.node();
        if (self.keyChanged()) {
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
            input = GroupedStreamImpl.groupedInput(graph, self.node(), keySerde, valueSerde, true, name);
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

    /** A stream-global table join: each record's row selected by {@code keySelector}. */
    static <K, V, KG, VG, VR> RecordStream<K, VR> addGlobal(
            RecordStreamImpl<K, V> self,
            GlobalTable<KG, VG> table,
            BiFunction<? super K, ? super V, ? extends KG> keySelector,
            ValueJoiner<? super V, ? super VG, ? extends VR> joiner,
            boolean left) {
        GlobalTableImpl<KG, VG> g = (GlobalTableImpl<KG, VG>) Objects.requireNonNull(table, "table");
        Objects.requireNonNull(keySelector, "keySelector");
        Objects.requireNonNull(joiner, "joiner");
        GraphBuilder graph = self.graph();
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
                List.of(self.node()),
                List.of(g.storeName()));
        return new RecordStreamImpl<>(graph, name, self.keySerde(), null, self.keyChanged());
    }
}
