package io.weir.docs.processor;

import static org.assertj.core.api.Assertions.assertThat;

import io.weir.Topology;
import io.weir.TopologyBuilder;
import io.weir.processor.Processor;
import io.weir.processor.ProcessorContext;
import io.weir.processor.PunctuationType;
import io.weir.processor.Record;
import io.weir.serde.Serdes;
import io.weir.testdriver.TestDriver;
import io.weir.testdriver.TestRecord;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/** docs/processor-api.md: event-time and wall-clock timers. */
class TimersTest {

    /** Forwards what each of its three timers fires, as "kind" to the time it fired at. */
    static final class Timers implements Processor<String, String, String, Long> {
        private final long deadline = 150_000;
        private ProcessorContext<String, Long> context;

        @Override
        public void init(ProcessorContext<String, Long> context) {
            this.context = context;
            // tag::timers[]
            // as the watermark passes each minute:
            context.schedule(Duration.ofMinutes(1), PunctuationType.EVENT_TIME, time -> fired("minute", time));
            // every 10 s of processing time:
            context.schedule(Duration.ofSeconds(10), PunctuationType.WALL_CLOCK, now -> fired("10s", now));
            // once, when the watermark reaches deadline:
            context.scheduleAt(deadline, PunctuationType.EVENT_TIME, time -> fired("deadline", time));
            // end::timers[]
        }

        @Override
        public void process(Record<String, String> record) {}

        private void fired(String kind, long time) {
            context.forward(new Record<>(kind, time, time));
        }
    }

    static Topology topology() {
        return new TopologyBuilder()
                .addSource("in", Serdes.strings(), Serdes.strings(), "events")
                .addProcessor("timers", Timers::new, "in")
                .addSink("out", "fired", Serdes.strings(), Serdes.longs(), "timers")
                .build();
    }

    @Test
    void eventTimeTimersFollowTheWatermark() {
        try (TestDriver driver = TestDriver.builder(topology()).build()) {
            driver.pipe("events", "k", "v", 30_000);
            driver.pipe("events", "k", "v", 160_000); // the watermark passes two minutes and the deadline

            assertThat(driver.output("fired", Serdes.strings(), Serdes.longs()))
                    .extracting(TestRecord::key)
                    .contains("minute", "deadline")
                    .doesNotContain("10s");
        }
    }

    @Test
    void wallClockTimersFollowTheClock() {
        try (TestDriver driver = TestDriver.builder(topology()).build()) {
            driver.pipe("events", "k", "v", 30_000);
            driver.advanceWallClock(Duration.ofSeconds(10));

            assertThat(driver.output("fired", Serdes.strings(), Serdes.longs()))
                    .extracting(TestRecord::key)
                    .contains("10s");
        }
    }
}
