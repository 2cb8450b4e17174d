package io.weir.ported;

import static org.assertj.core.api.Assertions.assertThat;

import io.weir.common.KeyValue;
import io.weir.serde.Serdes;
import io.weir.testdriver.TestDriver;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The stream-stream join port on the TestDriver, with the inputs and expected outputs of
 * Confluent's {@code StreamToStreamJoinIntegrationTest}: three impressions and three clicks at one
 * time, then an impression 15 s later that moves time past the window of the impression nobody
 * clicked.
 */
class StreamToStreamJoinTest {

    private static List<KeyValue<String, String>> output(TestDriver driver) {
        return Outputs.pairs(driver.output(StreamToStreamJoin.OUTPUT, Serdes.strings(), Serdes.strings()));
    }

    @Test
    void joinsImpressionsWithClicks() {
        long now = 1_764_000_000_000L;
        try (TestDriver driver = TestDriver.builder(StreamToStreamJoin.topology())
                .startWallClock(Instant.ofEpochMilli(now))
                .build()) {
            List.of("car-advertisement", "newspaper-advertisement", "gadget-advertisement")
                    .forEach(ad -> driver.pipe(StreamToStreamJoin.AD_IMPRESSIONS, ad, "shown", now));
            List.of("newspaper-advertisement", "gadget-advertisement", "newspaper-advertisement")
                    .forEach(ad -> driver.pipe(StreamToStreamJoin.AD_CLICKS, ad, "clicked", now));
            driver.pipe(
                    StreamToStreamJoin.AD_IMPRESSIONS,
                    "dummy",
                    "dummy",
                    now + StreamToStreamJoin.WINDOW.toMillis() * 3);

            List<KeyValue<String, String>> matches = List.of(
                    KeyValue.of("newspaper-advertisement", "shown/clicked"),
                    KeyValue.of("gadget-advertisement", "shown/clicked"),
                    KeyValue.of("newspaper-advertisement", "shown/clicked"));
            // An unmatched impression waits for the watermark, the slowest of both inputs
            // (docs/tables-and-joins.md, "Unmatched results"; docs/time-and-windows.md,
            // "Watermarks"): the clicks are still at the first time, so it is not written yet.
            // Kafka Streams goes by its stream time, the largest time of either input, and writes
            // it at the last impression.
            assertThat(output(driver)).containsExactlyElementsOf(matches);

            // Once the clicks have been silent for idle.timeout.ms (30 s of wall clock) they stop
            // holding the watermark back, and the impression nobody clicked is written.
            driver.advanceWallClock(Duration.ofSeconds(30));
            assertThat(output(driver)).containsExactly(KeyValue.of("car-advertisement", "shown/not-clicked-yet"));
        }
    }
}
