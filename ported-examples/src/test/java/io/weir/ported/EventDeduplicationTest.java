package io.weir.ported;

import static org.assertj.core.api.Assertions.assertThat;

import io.weir.serde.Serdes;
import io.weir.testdriver.TestDriver;
import io.weir.testdriver.TestRecord;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * The deduplication port on the TestDriver, with the input and expected output of Confluent's
 * {@code EventDeduplicationLambdaIntegrationTest}: three ids, nine events, each id once out.
 */
class EventDeduplicationTest {

    @Test
    void removesDuplicatesFromTheInput() {
        String first = UUID.randomUUID().toString();
        String second = UUID.randomUUID().toString();
        String third = UUID.randomUUID().toString();
        try (TestDriver driver =
                TestDriver.builder(EventDeduplication.topology()).build()) {
            for (String id : List.of(first, second, first, first, second, third, third, first, second)) {
                driver.pipe(EventDeduplication.INPUT, null, id, 1_000L);
            }
            assertThat(driver.output(EventDeduplication.OUTPUT, Serdes.bytes(), Serdes.strings()))
                    .extracting(TestRecord::value)
                    .containsExactly(first, second, third);
        }
    }
}
