package io.weir.ported;

import static org.assertj.core.api.Assertions.assertThat;

import io.weir.common.KeyValue;
import io.weir.serde.Serdes;
import io.weir.testdriver.TestDriver;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * The word-count ports on the TestDriver, with the inputs and expected outputs of Kafka's
 * {@code WordCountDemoTest} and Confluent's {@code WordCountLambdaExampleTest}.
 */
class WordCountTest {

    private static TestDriver driver(Pattern separators) {
        return TestDriver.builder(WordCount.topology(separators)).build();
    }

    private static void pipeLines(TestDriver driver, List<String> lines, long firstTimestamp, long step) {
        long t = firstTimestamp;
        for (String line : lines) {
            driver.pipe(WordCount.INPUT, null, line, t);
            t += step;
        }
    }

    private static List<KeyValue<String, Long>> output(TestDriver driver) {
        return Outputs.pairs(driver.output(WordCount.OUTPUT, Serdes.strings(), Serdes.longs()));
    }

    // Kafka's WordCountDemoTest.testOneWord; Confluent's WordCountLambdaExampleTest.testOneWord is
    // the same input with timestamp 1.
    @Test
    void oneWordIsCountedOnce() {
        for (Pattern separators : List.of(WordCount.ASCII_WORDS, WordCount.UNICODE_WORDS)) {
            try (TestDriver driver = driver(separators)) {
                driver.pipe(WordCount.INPUT, null, "Hello", 1L);
                assertThat(output(driver)).containsExactly(KeyValue.of("hello", 1L));
            }
        }
    }

    // Kafka's WordCountDemoTest.testCountListOfWords: runs of spaces and tabs separate words.
    @Test
    void countsAListOfWords() {
        try (TestDriver driver = driver(WordCount.ASCII_WORDS)) {
            pipeLines(
                    driver,
                    List.of(
                            "Apache   Kafka Streams   Example",
                            "Using  \t\t Kafka   Streams\tTest Utils",
                            "Reading and Writing Kafka Topic"),
                    0L,
                    0L);
            assertThat(Outputs.lastPerKey(driver.output(WordCount.OUTPUT, Serdes.strings(), Serdes.longs())))
                    .isEqualTo(Map.ofEntries(
                            Map.entry("apache", 1L),
                            Map.entry("kafka", 3L),
                            Map.entry("streams", 2L),
                            Map.entry("example", 1L),
                            Map.entry("using", 1L),
                            Map.entry("test", 1L),
                            Map.entry("utils", 1L),
                            Map.entry("reading", 1L),
                            Map.entry("and", 1L),
                            Map.entry("writing", 1L),
                            Map.entry("topic", 1L)));
        }
    }

    // Confluent's WordCountLambdaExampleTest.shouldCountWords: timestamps 1, 101, 201, 301.
    @Test
    void countsWordsOfAnyScript() {
        try (TestDriver driver = driver(WordCount.UNICODE_WORDS)) {
            pipeLines(driver, WordCountIT.LINES, 1L, 100L);
            assertThat(Outputs.lastPerKey(driver.output(WordCount.OUTPUT, Serdes.strings(), Serdes.longs())))
                    .isEqualTo(WordCountIT.EXPECTED);
        }
    }
}
