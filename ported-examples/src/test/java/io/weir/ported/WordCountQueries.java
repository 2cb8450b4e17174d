package io.weir.ported;

import io.weir.Topology;
import io.weir.TopologyBuilder;
import io.weir.dsl.GroupedStream;
import io.weir.dsl.TimeWindows;
import io.weir.serde.Serdes;
import java.time.Duration;
import java.util.Arrays;
import java.util.Locale;

/**
 * Confluent's {@code WordCountInteractiveQueriesExample}: words counted in two stores, all time
 * ({@code word-count}) and per minute ({@code windowed-word-count}), for interactive queries.
 *
 * <p>The original writes no output topic; its stores are read through a REST service of its own
 * (Jersey, with a metadata service locating each key's host). A Weir instance answers the same
 * queries on its HTTP port for any key of any store, forwarding to the instance that holds the key
 * (docs/querying.md), so the port is the topology alone.
 */
final class WordCountQueries {

    static final String TEXT_LINES = "TextLinesTopic";
    static final String WORD_COUNT = "word-count";
    static final String WINDOWED_WORD_COUNT = "windowed-word-count";

    private WordCountQueries() {}

    static Topology topology(String textLines) {
        TopologyBuilder b = new TopologyBuilder();
        GroupedStream<String, String> byWord = b.stream(Serdes.strings(), Serdes.strings(), textLines)
                .flatMapValues(
                        line -> Arrays.asList(line.toLowerCase(Locale.ROOT).split("\\W+")))
                .groupBy((key, word) -> word, Serdes.strings(), Serdes.strings());
        byWord.count(WORD_COUNT);
        byWord.windowedBy(TimeWindows.of(Duration.ofMinutes(1))).count(WINDOWED_WORD_COUNT);
        return b.build();
    }
}
