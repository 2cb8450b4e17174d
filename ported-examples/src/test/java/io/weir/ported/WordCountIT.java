package io.weir.ported;

import io.weir.WeirApp;
import io.weir.common.KeyValue;
import io.weir.testkit.KafkaExtension;
import io.weir.testkit.Records;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Confluent's {@code WordCountLambdaExample} on a real broker, with the inputs and expected outputs
 * of its {@code WordCountLambdaIntegrationTest}: the latest count of every word.
 */
class WordCountIT {

    @RegisterExtension
    static final KafkaExtension KAFKA = KafkaExtension.sharedPerRun();

    static final List<String> LINES = List.of(
            "Hello Kafka Streams", "All streams lead to Kafka", "Join Kafka Summit", "И теперь пошли русские слова");

    static final Map<String, Long> EXPECTED = Map.ofEntries(
            Map.entry("hello", 1L),
            Map.entry("all", 1L),
            Map.entry("streams", 2L),
            Map.entry("lead", 1L),
            Map.entry("to", 1L),
            Map.entry("join", 1L),
            Map.entry("kafka", 3L),
            Map.entry("summit", 1L),
            Map.entry("и", 1L),
            Map.entry("теперь", 1L),
            Map.entry("пошли", 1L),
            Map.entry("русские", 1L),
            Map.entry("слова", 1L));

    @Test
    void countsWordsOnKafka() {
        String input = KAFKA.uniqueTopic("lines", 2);
        String output = KAFKA.uniqueTopic("word-counts", 2);
        KAFKA.client()
                .produceStrings(
                        input,
                        LINES.stream()
                                .map(l -> KeyValue.<String, String>of(null, l))
                                .toList());
        try (WeirApp app = WeirApp.create(
                        WordCount.topology(input, output, WordCount.UNICODE_WORDS),
                        Apps.config(KAFKA.bootstrapServers(), "wordcount-" + input)
                                .build())
                .start()) {
            // The output is a changelog of counts: a table forwards each changed word once per
            // commit, so a word counted twice within one commit shows only its later count
            // (docs/tables-and-joins.md, "Updates"). The original reads the last count per word too.
            KAFKA.client().readUntil(output, r -> Records.lastLongPerKey(r).equals(EXPECTED), Duration.ofSeconds(60));
        }
    }
}
