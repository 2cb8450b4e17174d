package io.weir.docs.state;

import static org.assertj.core.api.Assertions.assertThat;

import io.weir.Topology;
import io.weir.TopologyBuilder;
import io.weir.processor.Processor;
import io.weir.processor.ProcessorContext;
import io.weir.processor.Record;
import io.weir.processor.Stores;
import io.weir.serde.Serdes;
import io.weir.state.WindowStore;
import io.weir.testdriver.TestDriver;
import io.weir.testdriver.TestRecord;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/** docs/state.md: key-value, window and session stores attached to processors. */
class StoresTest {

    static Topology dedup() {
        TopologyBuilder builder = new TopologyBuilder();
        // tag::key-value-store[]
        builder.addSource("in", Serdes.strings(), Serdes.strings(), "events")
                .addProcessor("dedup", Dedup::new, "in")
                .addStateStore(
                        Stores.keyValueStore("seen", Serdes.strings(), Serdes.longs())
                                .withTtl(Duration.ofHours(1)), // optional
                        "dedup")
                .addSink("out", "unique-events", Serdes.strings(), Serdes.strings(), "dedup");
        // end::key-value-store[]
        return builder.build();
    }

    /** Counts clicks per key and minute in the window store "clicks-per-minute". */
    static final class ClicksPerMinute implements Processor<String, String, Void, Void> {
        private WindowStore<String, Long> counts;

        @Override
        public void init(ProcessorContext<Void, Void> context) {
            counts = context.getStateStore("clicks-per-minute");
        }

        @Override
        public void process(Record<String, String> record) {
            long minute = record.timestamp() - record.timestamp() % 60_000;
            Long count = counts.fetch(record.key(), minute);
            counts.put(record.key(), minute, count == null ? 1 : count + 1);
        }
    }

    static Topology windowAndSessionStores() {
        TopologyBuilder builder = new TopologyBuilder();
        builder.addSource("in", Serdes.strings(), Serdes.strings(), "clicks")
                .addProcessor("counter", ClicksPerMinute::new, "in")
                .addProcessor("sessionizer", () -> (Processor<String, String, Void, Void>) record -> {}, "in")
                // tag::window-stores[]
                .addStateStore(
                        Stores.windowStore(
                                "clicks-per-minute",
                                Serdes.strings(),
                                Serdes.longs(),
                                Duration.ofMinutes(1),
                                Duration.ofHours(1)),
                        "counter")
                .addStateStore(
                        Stores.sessionStore("visits", Serdes.strings(), Serdes.longs(), Duration.ofHours(1)),
                        "sessionizer")
        // end::window-stores[]
        ;
        return builder.build();
    }

    @Test
    void dedupForwardsTheFirstRecordOfEachKey() {
        try (TestDriver driver = TestDriver.builder(dedup()).build()) {
            driver.pipe("events", "k1", "first", 1_000);
            driver.pipe("events", "k1", "again", 2_000);
            driver.pipe("events", "k2", "other", 3_000);

            assertThat(driver.output("unique-events", Serdes.strings(), Serdes.strings()))
                    .extracting(TestRecord::value)
                    .containsExactly("first", "other");
        }
    }

    @Test
    void windowStoreHoldsAValuePerKeyAndWindowStart() {
        try (TestDriver driver = TestDriver.builder(windowAndSessionStores()).build()) {
            driver.pipe("clicks", "page-1", "click", 60_000);
            driver.pipe("clicks", "page-1", "click", 90_000);
            driver.pipe("clicks", "page-1", "click", 120_000);

            assertThat(driver.<String, Long>windowStore("clicks-per-minute").fetch("page-1", 60_000))
                    .isEqualTo(2L);
            assertThat(driver.<String, Long>windowStore("clicks-per-minute").fetch("page-1", 120_000))
                    .isEqualTo(1L);
        }
    }
}
