package io.weir.internal.operator.window;

import static org.assertj.core.api.Assertions.assertThat;

import io.weir.TopologyBuilder;
import io.weir.dsl.Emit;
import io.weir.dsl.TimeWindows;
import io.weir.serde.Serdes;
import io.weir.state.Windowed;
import io.weir.testdriver.TestDriver;
import io.weir.testdriver.TestRecord;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Early results on the processing clock, end to end through the production runtime (the
 * TestDriver's wall clock drives the trigger's punctuation): approximate results while the window
 * is open, only for windows that changed, then the final result at the watermark.
 */
class EarlyTriggerDriverTest {

    private static final long MIN = 60_000;

    @Test
    void earlyResultsComeEveryIntervalOfWallClockForChangedWindowsThenTheFinalOne() {
        TopologyBuilder b = new TopologyBuilder();
        b.stream(Serdes.strings(), Serdes.longs(), "readings")
                .groupByKey()
                .windowedBy(TimeWindows.of(Duration.ofMinutes(1)))
                .emit(Emit.early(Duration.ofSeconds(10)))
                .count("counts")
                .to("counts");
        try (TestDriver driver = TestDriver.builder(b.build())
                .startWallClock(Instant.ofEpochMilli(0))
                .build()) {
            driver.pipe("readings", "s1", 1L, 5 * MIN + 1_000);
            driver.pipe("readings", "s1", 1L, 5 * MIN + 2_000);
            assertThat(read(driver)).as("nothing before the first interval").isEmpty();

            driver.advanceWallClock(Duration.ofSeconds(10));
            assertThat(read(driver)).containsExactly("s1[300000,360000)=2 early");

            driver.advanceWallClock(Duration.ofSeconds(10));
            assertThat(read(driver)).as("unchanged since its last early result").isEmpty();

            driver.pipe("readings", "s1", 1L, 5 * MIN + 3_000);
            driver.advanceWallClock(Duration.ofSeconds(10));
            assertThat(read(driver)).containsExactly("s1[300000,360000)=3 early");

            driver.pipe("readings", "s1", 1L, 6 * MIN); // the watermark reaches the window's end
            assertThat(read(driver)).containsExactly("s1[300000,360000)=3 final");
            driver.advanceWallClock(Duration.ofSeconds(10));
            assertThat(read(driver)).as("[6 min, 7 min) has one record").containsExactly("s1[360000,420000)=1 early");
        }
    }

    private static List<String> read(TestDriver driver) {
        List<TestRecord<Windowed<String>, Long>> out =
                driver.output("counts", Serdes.windowed(Serdes.strings()), Serdes.longs());
        return out.stream()
                .map(r -> r.key().key() + "[" + r.key().start() + "," + r.key().end() + ")=" + r.value() + " "
                        + r.headers().lastString("weir.pane"))
                .toList();
    }
}
