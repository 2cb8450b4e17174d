package io.weir.docs.dsl;

import static org.assertj.core.api.Assertions.assertThat;

import io.weir.Topology;
import io.weir.TopologyBuilder;
import io.weir.dsl.RecordStream;
import io.weir.serde.Serdes;
import io.weir.testdriver.TestDriver;
import io.weir.testdriver.TestRecord;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** docs/topology-and-dsl.md: named branches, and a topic chosen per record. */
class SplitTest {

    record Reading(String sensor, double temperature) {}

    static Topology topology() {
        TopologyBuilder b = new TopologyBuilder();
        RecordStream<String, Reading> readings = b.stream(Serdes.strings(), Serdes.json(Reading.class), "readings");
        // tag::split[]
        Map<String, RecordStream<String, Reading>> byLevel = readings.split()
                .branch("critical", (k, r) -> r.temperature() > 120)
                .branch("high", (k, r) -> r.temperature() > 90)
                .otherwise("normal");
        byLevel.get("critical").to("pager");
        readings.to(r -> "readings-" + r.value().sensor()); // topic chosen per record
        // end::split[]
        return b.build();
    }

    @Test
    void criticalReadingsGoToThePagerAndEveryReadingToItsSensorsTopic() {
        // Topics chosen per record are not in the topology: the driver must be told about them.
        try (TestDriver driver = TestDriver.builder(topology())
                .partitions("readings-s1", 1)
                .partitions("readings-s2", 1)
                .build()) {
            driver.pipe("readings", "s1", new Reading("s1", 130.0), 1_000);
            driver.pipe("readings", "s2", new Reading("s2", 95.0), 2_000);

            assertThat(driver.output("pager", Serdes.strings(), Serdes.json(Reading.class)))
                    .extracting(TestRecord::value)
                    .containsExactly(new Reading("s1", 130.0));
            assertThat(driver.output("readings-s2", Serdes.strings(), Serdes.json(Reading.class)))
                    .extracting(TestRecord::value)
                    .containsExactly(new Reading("s2", 95.0));
        }
    }
}
