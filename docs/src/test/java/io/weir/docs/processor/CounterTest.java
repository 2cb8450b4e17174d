package io.weir.docs.processor;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;

import io.weir.Topology;
import io.weir.TopologyBuilder;
import io.weir.dsl.RecordStream;
import io.weir.processor.Headers;
import io.weir.serde.Serdes;
import io.weir.testdriver.TestDriver;
import io.weir.testdriver.TestRecord;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/** docs/processor-api.md: the same processor added to a DSL stream, and node by node. */
class CounterTest {

    /** [0] through {@code RecordStream.process}, [1] node by node. */
    static List<Topology> topologies() {
        TopologyBuilder dsl = new TopologyBuilder();
        RecordStream<String, String> stream = dsl.stream(Serdes.strings(), Serdes.strings(), "events");
        TopologyBuilder builder = new TopologyBuilder();
        // tag::wiring[]
        stream.process(Counter::new, "counter").to("counts", Serdes.strings(), Serdes.longs());
        // or node by node:
        builder.addSource("in", Serdes.strings(), Serdes.strings(), "events")
                .addProcessor("counter", Counter::new, "in")
                .addSink("out", "counts", Serdes.strings(), Serdes.longs(), "counter");
        // end::wiring[]
        return List.of(dsl.build(), builder.build());
    }

    @Test
    void forwardsPriorityRecordsWithTheCountAndTheCountEveryTenSeconds() {
        for (Topology topology : topologies()) {
            try (TestDriver driver = TestDriver.builder(topology).build()) {
                driver.pipe("events", 0, "a", "x", 1_000, Headers.empty());
                driver.pipe("events", 0, "b", "y", 2_000, Headers.empty().with("priority", "high"));
                driver.advanceWallClock(Duration.ofSeconds(10));

                assertThat(driver.output("counts", Serdes.strings(), Serdes.longs()))
                        .extracting(TestRecord::key, TestRecord::value)
                        .containsExactly(tuple("b", 2L), tuple("count", 2L));
            }
        }
    }
}
