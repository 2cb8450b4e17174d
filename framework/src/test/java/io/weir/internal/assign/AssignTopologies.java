package io.weir.internal.assign;

import io.weir.internal.topology.GraphBuilder;
import io.weir.internal.topology.StoreSpec;
import io.weir.internal.topology.TopologyModel;
import io.weir.serde.Serdes;
import java.util.List;
import java.util.regex.Pattern;

/** Small topologies for assignment tests, resolved for application {@link #APP}. */
public final class AssignTopologies {

    public static final String APP = "app";

    private AssignTopologies() {}

    /**
     * Sub-topology 0: topics {@code a} and {@code b} merged into a processor with the logged store
     * {@code counts} (changelog {@code app-counts-changelog}). Sub-topology 1: topic {@code c}
     * straight to an output, stateless.
     */
    public static TopologyModel statefulMergeAndStatelessCopy() {
        GraphBuilder g = new GraphBuilder();
        g.addSource("src-a", List.of("a"), null, Serdes.strings(), Serdes.strings());
        g.addSource("src-b", List.of("b"), null, Serdes.strings(), Serdes.strings());
        g.addStore(new StoreSpec("counts", Serdes.strings(), Serdes.longs(), true, true, null));
        g.addProcessor("count", () -> record -> {}, List.of("src-a", "src-b"), List.of("counts"));
        g.addSource("src-c", List.of("c"), null, Serdes.strings(), Serdes.strings());
        g.addSink("out", "out", null, Serdes.strings(), Serdes.strings(), List.of("src-c"));
        return g.build().resolve(APP);
    }

    /** One stateless sub-topology reading {@code a} and {@code b}, and one reading topics matching {@code p-.*}. */
    public static TopologyModel statelessMergeAndPattern() {
        GraphBuilder g = new GraphBuilder();
        g.addSource("src-a", List.of("a"), null, Serdes.strings(), Serdes.strings());
        g.addSource("src-b", List.of("b"), null, Serdes.strings(), Serdes.strings());
        g.addSink("out", "out", null, Serdes.strings(), Serdes.strings(), List.of("src-a", "src-b"));
        g.addSource("src-p", List.of(), Pattern.compile("p-.*"), Serdes.strings(), Serdes.strings());
        g.addSink("out2", "out2", null, Serdes.strings(), Serdes.strings(), List.of("src-p"));
        return g.build().resolve(APP);
    }

    /** A sub-topology reading topics matching {@code p-.*} into a processor with store {@code last}. */
    public static TopologyModel statefulPattern() {
        GraphBuilder g = new GraphBuilder();
        g.addSource("src-p", List.of(), Pattern.compile("p-.*"), Serdes.strings(), Serdes.strings());
        g.addStore(new StoreSpec("last", Serdes.strings(), Serdes.strings(), true, true, null));
        g.addProcessor("remember", () -> record -> {}, List.of("src-p"), List.of("last"));
        return g.build().resolve(APP);
    }
}
