package io.weir.internal.http;

import io.weir.TopologyBuilder;
import io.weir.TopologyModels;
import io.weir.internal.topology.TopologyModel;
import io.weir.processor.Stores;
import io.weir.serde.Serdes;
import io.weir.testing.WordCount;
import java.util.List;
import java.util.regex.Pattern;

/** Topologies the ops tests render, built with the public builder as an application would. */
final class OpsTopologies {

    static final String APP = "wc";

    private OpsTopologies() {}

    /**
     * Three sub-topologies and then some: a word count (groupBy, so a repartition topic, and count,
     * so a logged store), a pattern source, and processor-API nodes whose names hold a space, a dot
     * and a dash, with an in-memory store without changelog.
     */
    static TopologyModel mixed() {
        TopologyBuilder b = new TopologyBuilder();
        WordCount.addTo(b, "counts");
        b.stream(Serdes.strings(), Serdes.strings(), Pattern.compile("metrics-.*"))
                .to("all-metrics", Serdes.strings(), Serdes.strings());
        b.addSource("audit.in", Serdes.strings(), Serdes.strings(), "audit")
                .addProcessor("audit log v2", () -> record -> {}, List.of("audit.in"), List.of())
                .addStateStore(
                        Stores.keyValueStore("seen.keys", Serdes.strings(), Serdes.strings())
                                .inMemory()
                                .withLoggingDisabled(),
                        "audit log v2")
                .addSink("audit-out", "audited", Serdes.strings(), Serdes.strings(), "audit log v2");
        return TopologyModels.resolved(b.build(), APP);
    }
}
