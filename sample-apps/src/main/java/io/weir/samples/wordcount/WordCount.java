package io.weir.samples.wordcount;

import io.weir.Topology;
import io.weir.TopologyBuilder;
import io.weir.serde.Serdes;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

/**
 * The word count: lines of text, split into words, counted per word.
 *
 * <pre>
 * lines (any key → String line)
 *   → flatMapValues to lower-case words
 *   → groupBy word          (repartitioned through &lt;app&gt;-word-counts-repartition)
 *   → count                 (store "word-counts", changelog &lt;app&gt;-word-counts-changelog)
 *   → word-counts (String word → Long count)
 * </pre>
 *
 * <p>The count table sends a word's latest count downstream once per commit interval, so the
 * output holds a rising subsequence of each word's counts ending with its total.
 */
public final class WordCount {

    /** The store of the counts; names its changelog and repartition topics. */
    public static final String STORE = "word-counts";

    private WordCount() {}

    /**
     * The topology as {@code serve word-count} runs it, with the sample's topics: the provider that
     * {@code weir topology diff}, {@code weir savepoint restore} and {@code weir topics} load with
     * {@code --topology io.weir.samples.wordcount.WordCount} (see docs/replay-and-savepoints.md, "Giving the CLI your topology").
     */
    public static Topology topology() {
        return WordCountService.sample()
                .topology()
                .apply(
                        WordCountService.sample().inputTopic(),
                        WordCountService.sample().outputTopic());
    }

    /** The topology reading lines from {@code input} and writing counts to {@code output}. */
    public static Topology topology(String input, String output) {
        TopologyBuilder b = new TopologyBuilder();
        b.stream(Serdes.strings(), Serdes.strings(), input)
                .flatMapValues(WordCount::words)
                .filter((k, w) -> !w.isEmpty())
                .groupBy((k, w) -> w, Serdes.strings(), Serdes.strings()) // repartitions by word
                .count(STORE)
                .toStream()
                .to(output, Serdes.strings(), Serdes.longs());
        return b.build();
    }

    /**
     * The split: lower case, then split on runs of non-word characters; may contain an
     * empty first word (a line starting with punctuation), which the topology filters out. A
     * tombstone (null line) has no words.
     */
    public static List<String> words(String line) {
        return line == null
                ? List.of()
                : Arrays.asList(line.toLowerCase(Locale.ROOT).split("\\W+"));
    }

    /** The counts the topology must end with for {@code lines}: the model of the check. */
    public static Map<String, Long> expectedCounts(Iterable<String> lines) {
        Map<String, Long> counts = new TreeMap<>();
        for (String line : lines) {
            for (String w : words(line)) {
                if (!w.isEmpty()) {
                    counts.merge(w, 1L, Long::sum);
                }
            }
        }
        return counts;
    }

    /** The non-empty words of {@code lines}, in order. */
    static List<String> allWords(Iterable<String> lines) {
        List<String> all = new ArrayList<>();
        lines.forEach(l -> words(l).stream().filter(w -> !w.isEmpty()).forEach(all::add));
        return all;
    }
}
