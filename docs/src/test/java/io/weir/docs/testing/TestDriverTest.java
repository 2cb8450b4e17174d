package io.weir.docs.testing;

import static org.assertj.core.api.Assertions.assertThat;

import io.weir.Topology;
import io.weir.TopologyBuilder;
import io.weir.dsl.TimeWindows;
import io.weir.processor.TaskId;
import io.weir.serde.Serdes;
import io.weir.state.Windowed;
import io.weir.testdriver.TestDriver;
import io.weir.testdriver.TestRecord;
import io.weir.time.Timestamps;
import java.time.Duration;
import java.time.Instant;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

/** docs/testing.md: the broker-less TestDriver, its partitions, clock, outputs and rebalances. */
class TestDriverTest {

    record Reading(String sensor, long value, long measuredAt) {}

    /** Sums per sensor and minute of event time, into the store and topic "sums". */
    static Topology sums() {
        TopologyBuilder b = new TopologyBuilder();
        b.stream(Serdes.strings(), Serdes.json(Reading.class), Timestamps.eventTime(Reading::measuredAt), "readings")
                .groupByKey()
                .windowedBy(TimeWindows.of(Duration.ofMinutes(1)))
                .aggregate(() -> 0L, (sensor, r, sum) -> sum + r.value(), Serdes.longs(), "sums")
                .to("sums");
        return b.build();
    }

    static Topology wordCount() {
        TopologyBuilder b = new TopologyBuilder();
        b.stream(Serdes.strings(), Serdes.strings(), "lines")
                .flatMapValues(line -> Arrays.asList(line.split(" ")))
                .groupBy((k, word) -> word, Serdes.strings(), Serdes.strings())
                .count("word-counts")
                .toStream()
                .to("word-counts", Serdes.strings(), Serdes.longs());
        return b.build();
    }

    @Test
    void drivesATopologyOverSeveralPartitions() {
        Topology topology = sums();
        long timestamp = Instant.parse("2026-01-01T00:00:10Z").toEpochMilli();
        Reading reading = new Reading("sensor-1", 7, timestamp);
        // tag::test-driver[]
        try (TestDriver driver = TestDriver.builder(topology)
                .partitions("readings", 4) // partitions per input topic (default 1)
                .config("max.out.of.orderness.ms", 5_000)
                .startWallClock(Instant.parse("2026-01-01T00:00:00Z"))
                .build()) {
            driver.pipe("readings", "sensor-1", reading, timestamp); // partition by key (murmur2)
            driver.pipe("readings", 2, "sensor-1", reading, timestamp); // or to a given partition
            driver.advanceWallClock(Duration.ofSeconds(30)); // wall-clock timers, idleness
            List<TestRecord<Windowed<String>, Long>> sums =
                    driver.output("sums", Serdes.windowed(Serdes.strings()), Serdes.longs());
            driver.windowStore("sums");
            driver.lateRecords();
            driver.deadLetters();
            assertThat(driver.watermark("readings", 2)).isEqualTo(timestamp - 5_000); // 5 s behind
            assertThat(sums).isEmpty(); // the minute is open
        }
        // end::test-driver[]
    }

    @Test
    void aRevokedTaskRestoresItsStoreWhenReassigned() {
        Topology wordCount = wordCount();
        // tag::revoke[]
        try (TestDriver driver =
                TestDriver.builder(wordCount).partitions("lines", 2).build()) {
            driver.pipe("lines", "l1", "a b a", 1_000);
            TaskId counting = new TaskId(1, 0); // counts the words of repartition partition 0
            driver.revoke(counting); // commits every task, closes 1_0 and its store
            driver.pipe("lines", "l2", "a", 2_000); // words for 1_0 wait in the repartition topic
            driver.reassign(counting); // restores "word-counts", then counts on
            assertThat(driver.<String, Long>store("word-counts").get("a")).isEqualTo(3L);
            driver.meterRegistry().get("weir.restore.records").counter().count();
        }
        // end::revoke[]
    }
}
