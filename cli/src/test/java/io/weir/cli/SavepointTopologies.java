package io.weir.cli;

import io.weir.Topology;
import io.weir.TopologyBuilder;
import io.weir.dsl.TimeWindows;
import io.weir.serde.Serdes;
import java.time.Duration;
import java.util.function.Supplier;

/**
 * Versions of a word count for {@link SavepointCommandsIT}, loaded by the CLI through
 * {@code --topology}: the one running, and changes a restore must refuse (a store of another kind or
 * value format, a store dropped) or carry (a store renamed, an input topic renamed). Topics come from
 * system properties, since the CLI builds them by class name.
 */
final class SavepointTopologies {

    static final String INPUT = "savepoints.input";
    static final String OUTPUT = "savepoints.output";

    private SavepointTopologies() {}

    /** The one running: a count per word in store {@code word-counts} (string to long). */
    public static final class Counts implements Supplier<Topology> {
        @Override
        public Topology get() {
            return WordCounts.counting(INPUT, "word-counts", OUTPUT);
        }
    }

    /** {@code word-counts} keeps strings: the saved longs cannot be read. */
    public static final class StringValues implements Supplier<Topology> {
        @Override
        public Topology get() {
            TopologyBuilder b = new TopologyBuilder();
            WordCounts.wordsOf(b, INPUT)
                    .aggregate(() -> "", (word, w, s) -> s + "|", Serdes.strings(), "word-counts")
                    .toStream()
                    .to(System.getProperty(OUTPUT), Serdes.strings(), Serdes.strings());
            return b.build();
        }
    }

    /** {@code word-counts} becomes a window store: another kind of store. */
    public static final class Windowed implements Supplier<Topology> {
        @Override
        public Topology get() {
            TopologyBuilder b = new TopologyBuilder();
            WordCounts.wordsOf(b, INPUT)
                    .windowedBy(TimeWindows.of(Duration.ofMinutes(1)))
                    .count("word-counts")
                    .map((w, count) -> io.weir.common.KeyValue.of(w.key(), count))
                    .to(System.getProperty(OUTPUT), Serdes.strings(), Serdes.longs());
            return b.build();
        }
    }

    /** The same count with its store renamed {@code word-totals}. */
    public static final class Renamed implements Supplier<Topology> {
        @Override
        public Topology get() {
            return WordCounts.counting(INPUT, "word-totals", OUTPUT);
        }
    }
}
