package io.weir.testing;

import io.weir.Topology;
import io.weir.TopologyBuilder;
import io.weir.serde.Serdes;
import java.util.Arrays;

/**
 * The word count the topology and driver tests build: lines from {@code lines} split at spaces,
 * grouped by word (so a repartition topic and a second sub-topology), counted in the logged store
 * {@code word-counts}, each new count written to an output topic. One definition, so that the tests
 * that render, compare or drive it speak of the same topology.
 */
public final class WordCount {

    /** The store of the counts. */
    public static final String STORE = "word-counts";

    private WordCount() {}

    /** Adds the word count to {@code b}, writing the counts to {@code output}. */
    public static void addTo(TopologyBuilder b, String output) {
        b.stream(Serdes.strings(), Serdes.strings(), "lines")
                .flatMapValues(line -> Arrays.asList(line.split(" ")))
                .groupBy((k, word) -> word, Serdes.strings(), Serdes.strings())
                .count(STORE)
                .toStream()
                .to(output, Serdes.strings(), Serdes.longs());
    }

    /** The word count alone, writing to {@code counts}. */
    public static Topology topology() {
        TopologyBuilder b = new TopologyBuilder();
        addTo(b, "counts");
        return b.build();
    }
}
