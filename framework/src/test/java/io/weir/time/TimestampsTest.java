package io.weir.time;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.weir.Topology;
import io.weir.TopologyBuilder;
import io.weir.serde.Serdes;
import io.weir.testdriver.TestDriver;
import org.junit.jupiter.api.Test;

class TimestampsTest {

    record Reading(String sensor, long measuredAt) {}

    @Test
    void eventTimeReadsTheValueAndATombstoneKeepsItsRecordTime() {
        TimestampExtractor<String, Reading> times = Timestamps.eventTime(Reading::measuredAt);
        assertThat(times.extract("s", new Reading("s", 42), 1_000)).isEqualTo(42);
        assertThat(times.extract("s", null, 1_000)).isEqualTo(1_000);
    }

    @Test
    void aFieldThatThrowsStillFails() {
        TimestampExtractor<String, Reading> times = Timestamps.eventTime(r -> {
            throw new IllegalStateException("no time in " + r.sensor());
        });
        assertThatThrownBy(() -> times.extract("s", new Reading("s", 1), 0)).isInstanceOf(IllegalStateException.class);
    }

    @Test
    void aTombstoneOnAnEventTimeSourceFlowsOnInsteadOfBeingDeadLettered() {
        TopologyBuilder b = new TopologyBuilder();
        b.stream(Serdes.strings(), Serdes.json(Reading.class), Timestamps.eventTime(Reading::measuredAt), "readings")
                .to("out", Serdes.strings(), Serdes.json(Reading.class));
        Topology topology = b.build();
        try (TestDriver driver = TestDriver.builder(topology).build()) {
            driver.pipe("readings", "s1", new Reading("s1", 5_000), 9_000);
            driver.pipe("readings", "s1", null, 7_000);
            assertThat(driver.deadLetters()).isEmpty();
            assertThat(driver.output("out", Serdes.strings(), Serdes.json(Reading.class)))
                    .extracting(r -> r.value() == null ? "tombstone@" + r.timestamp() : "reading@" + r.timestamp())
                    .containsExactly("reading@5000", "tombstone@7000");
        }
    }
}
