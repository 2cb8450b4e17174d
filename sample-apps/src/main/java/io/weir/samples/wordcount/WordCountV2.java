package io.weir.samples.wordcount;

import io.weir.Topology;
import io.weir.TopologyBuilder;
import io.weir.serde.Serdes;
import java.util.List;

/**
 * A second version of the {@link WordCount}, run by {@code serve word-count --variant v2}: the
 * version a team would try beside production with a savepoint and a shadow topic, then promote
 * (see docs/deploying.md, "Try a new version beside production"). Two changes:
 * <ul>
 *   <li>words of one letter ({@code a}) are no longer counted: a change of the results, which
 *       {@code weir diff} shows;</li>
 *   <li>the store is renamed {@value #STORE} (from {@value WordCount#STORE}): a change of the state,
 *       which {@code weir topology diff} reports as needing a savepoint or a reset, and which
 *       {@code weir savepoint restore --map-store word-counts=word-totals} carries over.</li>
 * </ul>
 * Keys and values keep their formats (string words, long counts), so the old counts load into the
 * renamed store unchanged.
 */
public final class WordCountV2 {

    /** The renamed store of the counts. */
    public static final String STORE = "word-totals";

    private WordCountV2() {}

    /**
     * The topology as {@code serve word-count --variant v2} runs it, with the sample's topics: the
     * provider that {@code weir topology diff} and {@code weir savepoint restore} load with
     * {@code --topology io.weir.samples.wordcount.WordCountV2}.
     */
    public static Topology topology() {
        return topology(WordCountService.INPUT_TOPIC, WordCountService.OUTPUT_TOPIC);
    }

    /** The topology reading lines from {@code input} and writing counts to {@code output}. */
    public static Topology topology(String input, String output) {
        TopologyBuilder b = new TopologyBuilder();
        b.stream(Serdes.strings(), Serdes.strings(), input)
                .flatMapValues(WordCountV2::words)
                .groupBy((k, w) -> w, Serdes.strings(), Serdes.strings()) // repartitions by word
                .count(STORE)
                .toStream()
                .to(output, Serdes.strings(), Serdes.longs());
        return b.build();
    }

    /** The words v2 counts: {@link WordCount#words}, without empty and one-letter words. */
    public static List<String> words(String line) {
        return WordCount.words(line).stream().filter(w -> w.length() > 1).toList();
    }
}
