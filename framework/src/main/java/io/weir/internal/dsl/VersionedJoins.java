package io.weir.internal.dsl;

import io.weir.dsl.Joined;
import io.weir.dsl.ValueJoiner;
import io.weir.errors.TopologyException;
import io.weir.internal.operator.join.AsOfJoinProcessor;
import io.weir.internal.operator.join.GraceBuffer;
import io.weir.internal.operator.table.VersionedLookup;
import io.weir.internal.topology.GraphBuilder;
import io.weir.internal.topology.StoreSpec;
import io.weir.serde.Serde;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * Adds stream-table joins against versioned tables: as of each record's time, at once or after a
 * grace period ({@link AsOfJoinProcessor}), and checks, when the topology is built, what a grace
 * period needs.
 */
final class VersionedJoins {

    private VersionedJoins() {}

    /**
     * Fails naming the table and the fix unless a join with {@code joined}'s grace can run: the
     * table is versioned and keeps at least the grace of history (else every record waiting out
     * its grace would find the history gone), and the stream's values can be buffered.
     */
    static void checkGrace(RecordTableImpl<?, ?> table, Joined joined, Serde<?> valueSerde) {
        String tableName = table.lookup().stores().get(0);
        if (table.versions() == null) {
            throw new TopologyException("the stream-table join '" + joined.name() + "' has a grace period of "
                    + joined.grace() + ", which needs a versioned table, but the table of store '" + tableName
                    + "' is not: declare it with Versioned.history(...) (builder.table(..., Versioned) or"
                    + " toTable(store, Versioned)), or join without a grace period");
        }
        long graceMs = joined.grace().toMillis();
        if (graceMs > table.versions().historyRetentionMs()) {
            throw new TopologyException("the stream-table join '" + joined.name() + "' has a grace period of "
                    + joined.grace() + ", longer than the history retention of versioned table '" + tableName + "' ("
                    + Duration.ofMillis(table.versions().historyRetentionMs()) + "): a record waiting out its grace"
                    + " would find the history it needs gone; keep at least the grace of history"
                    + " (Versioned.history(" + joined.grace() + ") or more) or shorten the grace");
        }
        if (valueSerde == null) {
            throw new TopologyException("the stream-table join '" + joined.name() + "' buffers the stream's records"
                    + " for its grace period and needs the stream's value serde: call withSerdes(...) before the join");
        }
    }

    /**
     * Adds the join reading {@code input}, named {@code joined.name()} with a grace period (its
     * buffer store {@code <name>-buffer}) or a generated name without; returns the node's name.
     */
    static <K, V, VT, VR> String add(
            GraphBuilder graph,
            String input,
            VersionedLookup<K, VT> table,
            ValueJoiner<? super V, ? super VT, ? extends VR> joiner,
            boolean left,
            Joined joined,
            Serde<K> keySerde,
            Serde<V> valueSerde) {
        if (joined == null) {
            String name = graph.newName(left ? "left-join" : "join");
            graph.addProcessor(name, AsOfJoinProcessor.immediate(table, joiner, left), List.of(input), table.stores());
            return name;
        }
        String buffer = joined.name() + "-buffer";
        long graceMs = joined.grace().toMillis();
        if (keySerde == null) {
            throw new TopologyException("the stream-table join '" + joined.name() + "' buffers the stream's records"
                    + " for its grace period and needs the stream's key serde: call withSerdes(...) before the join");
        }
        // a window of 1 ms per record time; kept a grace past its time, then dropped after it was joined
        graph.addStore(new StoreSpec(
                buffer,
                keySerde,
                new GraceBuffer.BufferSerde<>(valueSerde),
                true,
                true,
                null,
                StoreSpec.Kind.WINDOW,
                1,
                Duration.ofMillis(graceMs)));
        List<String> stores = new ArrayList<>(table.stores());
        stores.add(buffer);
        graph.addProcessor(
                joined.name(),
                AsOfJoinProcessor.withGrace(table, joiner, left, buffer, graceMs),
                List.of(input),
                stores);
        return joined.name();
    }
}
