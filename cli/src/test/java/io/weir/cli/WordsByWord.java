package io.weir.cli;

import io.weir.TopologyBuilder;
import io.weir.dsl.GroupedStream;
import io.weir.serde.Serdes;
import java.util.List;

/** The first half of every word count the CLI tests load: lines split into words, grouped by word. */
final class WordsByWord {

    private WordsByWord() {}

    /** The words of the lines in the topic named by system property {@code inputProperty}, grouped by word. */
    static GroupedStream<String, String> of(TopologyBuilder b, String inputProperty) {
        return b.stream(Serdes.strings(), Serdes.strings(), System.getProperty(inputProperty))
                .flatMapValues(line -> List.of(line.split(" ")))
                .groupBy((k, word) -> word, Serdes.strings(), Serdes.strings());
    }
}
