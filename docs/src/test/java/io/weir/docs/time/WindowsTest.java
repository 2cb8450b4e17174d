package io.weir.docs.time;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;

import io.weir.Topology;
import io.weir.TopologyBuilder;
import io.weir.dsl.CountWindows;
import io.weir.dsl.GroupedStream;
import io.weir.dsl.SessionWindows;
import io.weir.dsl.TimeWindows;
import io.weir.serde.Serdes;
import io.weir.state.Windowed;
import io.weir.testdriver.TestDriver;
import io.weir.testdriver.TestRecord;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/** docs/time-and-windows.md: the kinds of windows. */
class WindowsTest {

    @Test
    void everyKindOfWindowIsDeclaredOnAGroupedStream() {
        TopologyBuilder b = new TopologyBuilder();
        GroupedStream<String, String> grouped =
                b.stream(Serdes.strings(), Serdes.strings(), "clicks").groupByKey();
        // tag::windows[]
        // tumbling:
        grouped.windowedBy(TimeWindows.of(Duration.ofMinutes(1)));
        // sliding (hopping):
        grouped.windowedBy(TimeWindows.of(Duration.ofMinutes(1)).advanceBy(Duration.ofSeconds(30)));
        // sessions:
        grouped.windowedBy(SessionWindows.withInactivityGap(Duration.ofMinutes(30)));
        // every 100 records of a key:
        grouped.windowedBy(CountWindows.of(100));
        // 100 records, a new window every 10; each closes 5 min of event time after its first record at the latest:
        grouped.windowedBy(CountWindows.of(100).slideBy(10).timeout(Duration.ofMinutes(5)));
        // end::windows[]
        grouped.windowedBy(TimeWindows.of(Duration.ofMinutes(1)))
                .count("clicks-per-minute")
                .to("counts");
        Topology topology = b.build();

        try (TestDriver driver = TestDriver.builder(topology).build()) {
            driver.pipe("clicks", "page-1", "click", 10_000);
            driver.pipe("clicks", "page-1", "click", 20_000);
            driver.pipe("clicks", "page-1", "click", 60_000); // the watermark passes the first minute

            assertThat(driver.output("counts", Serdes.windowed(Serdes.strings()), Serdes.longs()))
                    .extracting(TestRecord::key, TestRecord::value)
                    .containsExactly(tuple(new Windowed<>("page-1", 0, 60_000), 2L));
        }
    }
}
