package io.weir.dsl;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;

import io.weir.Topology;
import io.weir.TopologyBuilder;
import io.weir.serde.Serdes;
import io.weir.state.Windowed;
import io.weir.testdriver.TestDriver;
import io.weir.testdriver.TestRecord;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/** {@link TimeWindows#retainFor}: closed windows stay readable, take no more records, and go after their retention. */
class WindowRetentionTest {

    private static Topology countsPerSecond(TimeWindows windows) {
        TopologyBuilder b = new TopologyBuilder();
        b.stream(Serdes.strings(), Serdes.strings(), "in")
                .groupByKey()
                .windowedBy(windows)
                .count("counts")
                .to("out");
        return b.build();
    }

    @Test
    void aClosedWindowIsDroppedAtOnceByDefault() {
        try (TestDriver driver = TestDriver.builder(countsPerSecond(TimeWindows.of(Duration.ofSeconds(1))))
                .build()) {
            driver.pipe("in", "k", "a", 100);
            driver.pipe("in", "k", "b", 1_200); // closes [0, 1000)
            assertThat(driver.<String, Long>windowStore("counts").fetch("k", 0)).isNull();
            assertThat(driver.<String, Long>windowStore("counts").fetch("k", 1_000))
                    .isEqualTo(1L);
        }
    }

    @Test
    void aRetainedWindowStaysReadableAfterItClosedTakesNoLateRecordAndGoesAfterItsRetention() {
        TimeWindows windows = TimeWindows.of(Duration.ofSeconds(1))
                .allowedLateness(Duration.ofMillis(100))
                .retainFor(Duration.ofSeconds(5));
        try (TestDriver driver = TestDriver.builder(countsPerSecond(windows)).build()) {
            driver.pipe("in", "k", "a", 100);
            driver.pipe("in", "k", "b", 500);
            driver.pipe("in", "k", "c", 1_200); // closes [0, 1000): its end plus 100 ms of lateness passed
            assertThat(driver.output("out", Serdes.windowed(Serdes.strings()), Serdes.longs()))
                    .extracting(TestRecord::key, TestRecord::value)
                    .containsExactly(tuple(new Windowed<>("k", 0, 1_000), 2L));
            assertThat(driver.<String, Long>windowStore("counts").fetch("k", 0))
                    .as("closed, still kept for queries")
                    .isEqualTo(2L);

            driver.pipe("in", "k", "late", 300); // within the retention, but the window is closed
            assertThat(driver.lateRecords()).hasSize(1);
            assertThat(driver.<String, Long>windowStore("counts").fetch("k", 0)).isEqualTo(2L);
            assertThat(driver.output("out", Serdes.windowed(Serdes.strings()), Serdes.longs()))
                    .as("a closed window is never emitted again")
                    .isEmpty();

            driver.pipe("in", "k", "d", 6_100); // past [0, 1000)'s end plus 5 s, not [1000, 2000)'s
            assertThat(driver.<String, Long>windowStore("counts").fetch("k", 0)).isNull();
            assertThat(driver.<String, Long>windowStore("counts").fetch("k", 1_000))
                    .isEqualTo(1L);
        }
    }
}
