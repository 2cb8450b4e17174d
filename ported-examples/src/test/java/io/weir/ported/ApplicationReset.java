package io.weir.ported;

import io.weir.Topology;
import io.weir.TopologyBuilder;
import io.weir.serde.Serdes;

/**
 * Confluent's {@code ApplicationResetExample}: lines counted by their first word. The example is
 * about running it again over the same input after Kafka's application reset tool; with Weir that
 * is {@code weir reset}, and the re-run can be a bounded run that stops at the end of the input
 * (docs/replay-and-savepoints.md).
 */
final class ApplicationReset {

    static final String STORE = "first-word-counts";

    private ApplicationReset() {}

    static Topology topology(String input, String output) {
        TopologyBuilder b = new TopologyBuilder();
        b.stream(Serdes.strings(), Serdes.strings(), input)
                .selectKey((key, line) -> line.split(" ")[0])
                // the original leans on default serdes; Weir has none, and says so when building
                .withSerdes(Serdes.strings(), Serdes.strings())
                .groupByKey()
                .count(STORE)
                .toStream()
                .to(output, Serdes.strings(), Serdes.longs());
        return b.build();
    }
}
