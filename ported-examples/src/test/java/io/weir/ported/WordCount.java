package io.weir.ported;

import io.weir.Topology;
import io.weir.TopologyBuilder;
import io.weir.serde.Serdes;
import java.util.Arrays;
import java.util.Locale;
import java.util.regex.Pattern;

/**
 * Word count, as Apache Kafka's {@code WordCountDemo} and Confluent's {@code WordCountLambdaExample}
 * do it: lines in, each line's words (lower case) regrouped by word and counted, the running count
 * of each word out. The two originals differ only in what a word is: Kafka's splits on {@code \W+}
 * (ASCII), Confluent's on {@code \W+} with Unicode character classes, so Cyrillic words count too.
 */
final class WordCount {

    static final String INPUT = "streams-plaintext-input";
    static final String OUTPUT = "streams-wordcount-output";
    static final String STORE = "word-counts";

    /** Kafka's {@code WordCountDemo}: ASCII word characters. */
    static final Pattern ASCII_WORDS = Pattern.compile("\\W+");
    /** Confluent's {@code WordCountLambdaExample}: Unicode word characters. */
    static final Pattern UNICODE_WORDS = Pattern.compile("\\W+", Pattern.UNICODE_CHARACTER_CLASS);

    private WordCount() {}

    static Topology topology(Pattern separators) {
        return topology(INPUT, OUTPUT, separators);
    }

    static Topology topology(String input, String output, Pattern separators) {
        TopologyBuilder b = new TopologyBuilder();
        b.stream(Serdes.strings(), Serdes.strings(), input)
                .flatMapValues(line -> Arrays.asList(separators.split(line.toLowerCase(Locale.ROOT))))
                .groupBy((ignored, word) -> word, Serdes.strings(), Serdes.strings())
                .count(STORE)
                .toStream()
                .to(output, Serdes.strings(), Serdes.longs());
        return b.build();
    }
}
