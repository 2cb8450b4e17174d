package io.weir.docs.time;

import static org.assertj.core.api.Assertions.assertThat;

import io.weir.Topology;
import io.weir.TopologyBuilder;
import io.weir.dsl.RecordStream;
import io.weir.serde.Serdes;
import io.weir.testdriver.TestDriver;
import io.weir.testdriver.TestRecord;
import io.weir.time.Timestamps;
import org.junit.jupiter.api.Test;

/** docs/time-and-windows.md: a source whose records take their time from a field of the value. */
class TimestampsTest {

    record Reading(String sensor, double temperature, long measuredAt) {}

    static Topology topology() {
        TopologyBuilder b = new TopologyBuilder();
        // tag::event-time[]
        RecordStream<String, Reading> readings = b.stream(
                Serdes.strings(),
                Serdes.json(Reading.class),
                Timestamps.eventTime(Reading::measuredAt), // event time: a field of the value
                "readings");
        // end::event-time[]
        readings.to("copies");
        return b.build();
    }

    @Test
    void recordsTakeTheTimeOfTheirValue() {
        try (TestDriver driver = TestDriver.builder(topology()).build()) {
            driver.pipe("readings", "s1", new Reading("s1", 20.5, 5_000), 9_000);

            assertThat(driver.output("copies", Serdes.strings(), Serdes.json(Reading.class)))
                    .extracting(TestRecord::timestamp)
                    .containsExactly(5_000L);
            assertThat(driver.watermark("readings", 0)).isEqualTo(5_000L);
        }
    }
}
