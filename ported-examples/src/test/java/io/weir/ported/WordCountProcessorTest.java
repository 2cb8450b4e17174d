package io.weir.ported;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;

import io.weir.common.KeyValue;
import io.weir.serde.Serdes;
import io.weir.testdriver.TestDriver;
import io.weir.testdriver.TestRecord;
import org.junit.jupiter.api.Test;

/**
 * The processor-API word count on the TestDriver, with the input and expected output of Kafka's
 * {@code WordCountProcessorTest}: one line with a repeated word, tabs and a newline; at the
 * punctuation, each word's count in key order.
 */
class WordCountProcessorTest {

    @Test
    void countsWordsAndWritesThemAtThePunctuation() {
        try (TestDriver driver =
                TestDriver.builder(WordCountProcessor.topology()).build()) {
            driver.pipe(WordCountProcessor.INPUT, "key", "alpha beta\tgamma\n\talpha", 0L);
            // Nothing before the punctuation, as in the original.
            assertThat(driver.output(WordCountProcessor.OUTPUT, Serdes.strings(), Serdes.strings()))
                    .isEmpty();

            // The original calls the punctuator by hand, at time 0 (Kafka Streams fires its first
            // STREAM_TIME punctuation at the first record's time). An EVENT_TIME punctuation fires
            // as the watermark advances to a multiple of its interval (docs/processor-api.md,
            // "Timers"), here 1 s, which the next line brings; it fires before that line is
            // counted, so the counts are the first line's, stamped 1 s.
            driver.pipe(WordCountProcessor.INPUT, "key", "delta", 1_000L);
            assertThat(driver.output(WordCountProcessor.OUTPUT, Serdes.strings(), Serdes.strings()))
                    .extracting(r -> KeyValue.of(r.key(), r.value()), TestRecord::timestamp)
                    .containsExactly(
                            tuple(KeyValue.of("alpha", "2"), 1_000L),
                            tuple(KeyValue.of("beta", "1"), 1_000L),
                            tuple(KeyValue.of("gamma", "1"), 1_000L));
            assertThat(driver.<String, Integer>store(WordCountProcessor.STORE).get("delta"))
                    .isEqualTo(1);
        }
    }
}
