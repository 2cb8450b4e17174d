package io.weir.cli;

import io.weir.Topology;
import io.weir.TopologyBuilder;
import io.weir.serde.Serdes;
import java.util.function.Supplier;

/**
 * Two versions of a word count for {@link ReplayIT}, loaded by the CLI through {@code --topology}:
 * v1 counts words; v2 changes the aggregation (a word starting with {@code v} weighs 2) and writes
 * to a shadow topic. Topics come from system properties, since the CLI builds them by class name.
 */
final class ReplayTopologies {

    static final String INPUT = "replay.input";
    static final String OUTPUT = "replay.output";
    static final String SHADOW = "replay.shadow";

    private ReplayTopologies() {}

    /** Production: a count per word, to {@code replay.output}. */
    public static final class V1 implements Supplier<Topology> {
        @Override
        public Topology get() {
            return WordCounts.counting(INPUT, "word-counts", OUTPUT);
        }
    }

    /** The change: words starting with {@code v} count twice; same store and formats, shadow output. */
    public static final class V2 implements Supplier<Topology> {
        @Override
        public Topology get() {
            TopologyBuilder b = new TopologyBuilder();
            WordCounts.wordsOf(b, INPUT)
                    .aggregate(
                            () -> 0L,
                            (word, w, sum) -> sum + (word.startsWith("v") ? 2 : 1),
                            Serdes.longs(),
                            "word-counts")
                    .toStream()
                    .to(System.getProperty(SHADOW), Serdes.strings(), Serdes.longs());
            return b.build();
        }
    }
}
