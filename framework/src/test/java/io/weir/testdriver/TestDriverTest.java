package io.weir.testdriver;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.tuple;

import io.weir.Topology;
import io.weir.TopologyBuilder;
import io.weir.common.KeyValue;
import io.weir.dsl.Emit;
import io.weir.dsl.RecordStream;
import io.weir.dsl.TimeWindows;
import io.weir.errors.ConfigException;
import io.weir.errors.InstanceFailedException;
import io.weir.errors.InstanceStateException;
import io.weir.errors.ProcessingException;
import io.weir.processor.Headers;
import io.weir.processor.Processor;
import io.weir.processor.ProcessorContext;
import io.weir.processor.PunctuationType;
import io.weir.processor.Record;
import io.weir.processor.Stores;
import io.weir.processor.TaskId;
import io.weir.serde.Serdes;
import io.weir.state.KeyValueStore;
import io.weir.state.ReadOnlyKeyValueStore;
import io.weir.testing.WordCount;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;
import java.util.stream.IntStream;
import org.apache.kafka.common.utils.Utils;
import org.junit.jupiter.api.Test;

class TestDriverTest {

    private static final long T0 = 1_000_000;

    /** The partition Kafka's default partitioner gives a string key among {@code n}. */
    private static int partitionOf(String key, int n) {
        return Utils.toPositive(Utils.murmur2(key.getBytes(StandardCharsets.UTF_8))) % n;
    }

    private static Topology upperCase() {
        TopologyBuilder b = new TopologyBuilder();
        b.stream(Serdes.strings(), Serdes.strings(), "in")
                .filter((k, v) -> !v.isEmpty())
                .mapValues(v -> v.toUpperCase())
                .to("out", Serdes.strings(), Serdes.strings());
        return b.build();
    }

    private static Topology wordCount() {
        return WordCount.topology();
    }

    private static Map<String, Long> latestPerKey(List<TestRecord<String, Long>> records) {
        Map<String, Long> latest = new HashMap<>();
        records.forEach(r -> latest.put(r.key(), r.value()));
        return latest;
    }

    // ---- stateless, several partitions -------------------------------------------------------

    @Test
    void runsOneTaskPerInputPartitionAndPartitionsOutputsByKey() {
        try (TestDriver driver = TestDriver.builder(upperCase())
                .partitions("in", 4)
                .partitions("out", 3)
                .startWallClock(T0)
                .inMemoryStores()
                .build()) {
            assertThat(driver.tasks())
                    .containsExactly(new TaskId(0, 0), new TaskId(0, 1), new TaskId(0, 2), new TaskId(0, 3));

            driver.pipe("in", 2, "k1", "a", 100);
            driver.pipe("in", 0, "k2", "", 150); // filtered out
            driver.pipe("in", 0, "k2", "b", 200);
            driver.pipe("in", "k3", "c", 300); // partition picked by the key

            List<TestRecord<String, String>> out = driver.output("out", Serdes.strings(), Serdes.strings());
            assertThat(out).extracting(TestRecord::key).containsExactly("k1", "k2", "k3");
            assertThat(out).extracting(TestRecord::value).containsExactly("A", "B", "C");
            assertThat(out).extracting(TestRecord::timestamp).containsExactly(100L, 200L, 300L);
            assertThat(out)
                    .extracting(TestRecord::partition)
                    .containsExactly(partitionOf("k1", 3), partitionOf("k2", 3), partitionOf("k3", 3));
            assertThat(driver.watermark("in", partitionOf("k3", 4))).isEqualTo(300);
            assertThat(driver.watermark(new TaskId(0, 2))).isEqualTo(100);

            assertThat(driver.output("out", Serdes.strings(), Serdes.strings()))
                    .as("read already")
                    .isEmpty();
            driver.pipe("in", 1, "k4", "d", 400);
            assertThat(driver.output("out", Serdes.strings(), Serdes.strings()))
                    .extracting(TestRecord::value)
                    .containsExactly("D");
            assertThat(driver.allOutput("out", Serdes.strings(), Serdes.strings()))
                    .hasSize(4);
        }
    }

    @Test
    void keepsHeadersAndOffsetsPerPartition() {
        try (TestDriver driver =
                TestDriver.builder(upperCase()).inMemoryStores().build()) {
            driver.pipe("in", 0, "k", "x", 10, Headers.empty().with("trace", "t-1"));
            driver.pipe("in", 0, "k", "y", 20);
            List<TestRecord<String, String>> out = driver.output("out", Serdes.strings(), Serdes.strings());
            assertThat(out).extracting(TestRecord::offset).containsExactly(0L, 1L);
            assertThat(out.get(0).headers().lastString("trace")).isEqualTo("t-1");
            assertThat(out.get(1).headers().isEmpty()).isTrue();
        }
    }

    @Test
    void patternSourcesReadTheDeclaredTopicsTheyMatch() {
        TopologyBuilder b = new TopologyBuilder();
        b.stream(Serdes.strings(), Serdes.strings(), Pattern.compile("events-.*"))
                .to("out");
        try (TestDriver driver = TestDriver.builder(b.build())
                .partitions("events-a", 2)
                .partitions("events-b", 3)
                .inMemoryStores()
                .build()) {
            assertThat(driver.tasks()).hasSize(3); // as many as the largest matching topic has partitions
            driver.pipe("events-b", 2, "k", "v", 1);
            driver.pipe("events-a", 1, "k", "w", 2);
            assertThat(driver.output("out", Serdes.strings(), Serdes.strings()))
                    .extracting(TestRecord::value)
                    .containsExactly("v", "w");
            assertThatThrownBy(() -> driver.pipe("events-c", "k", "v", 1)).hasMessageContaining("unknown topic");
        }
    }

    @Test
    void logAppendTimeTopicsStampRecordsWithTheWallClock() {
        try (TestDriver driver = TestDriver.builder(upperCase())
                .config("default.timestamp", "log_append")
                .startWallClock(T0)
                .inMemoryStores()
                .build()) {
            driver.pipe("in", "k", "a", 5);
            driver.advanceWallClock(Duration.ofSeconds(1));
            driver.pipe("in", "k", "b", 5);
            assertThat(driver.output("out", Serdes.strings(), Serdes.strings()))
                    .extracting(TestRecord::timestamp)
                    .containsExactly(T0, T0 + 1_000);
        }
    }

    // ---- stateful, through a repartition topic -----------------------------------------------

    @Test
    void countsPerKeyThroughTheRepartitionTopic() {
        try (TestDriver driver = TestDriver.builder(wordCount())
                .partitions("lines", 3)
                .startWallClock(T0)
                .build()) {
            assertThat(driver.tasks()).hasSize(6); // 3 tasks reading lines, 3 reading the repartition topic

            driver.pipe("lines", 0, "l1", "a b a", 10);
            driver.pipe("lines", 1, "l2", "b c", 20);
            driver.pipe("lines", 2, "l3", "a", 30);

            List<TestRecord<String, Long>> counts = driver.output("counts", Serdes.strings(), Serdes.longs());
            assertThat(latestPerKey(counts)).isEqualTo(Map.of("a", 3L, "b", 2L, "c", 1L));
            // One update per key and commit: the first line counted "a" twice but emitted it once.
            assertThat(counts)
                    .filteredOn(r -> r.key().equals("a"))
                    .extracting(TestRecord::value)
                    .containsExactly(2L, 3L);

            ReadOnlyKeyValueStore<String, Long> store = driver.store("word-counts");
            assertThat(store.get("a")).isEqualTo(3L);
            assertThat(store.get("b")).isEqualTo(2L);
            assertThat(store.get("zzz")).isNull();

            // Records were routed to the repartition partition of their new key.
            List<TestRecord<String, String>> routed =
                    driver.allOutput("test-app-word-counts-repartition", Serdes.strings(), Serdes.strings());
            assertThat(routed)
                    .hasSize(6)
                    .allSatisfy(r -> assertThat(r.partition()).isEqualTo(partitionOf(r.key(), 3)));
            // A counting task's event time is the slowest of the three tasks writing to its partition.
            assertThat(driver.watermark(new TaskId(1, partitionOf("c", 3)))).isEqualTo(10);
        }
    }

    @Test
    void aLongerCommitIntervalShowsTableUpdatesAtTheCommit() {
        try (TestDriver driver =
                TestDriver.builder(wordCount()).commitEvery(3).inMemoryStores().build()) {
            driver.pipe("lines", "l", "a", 1);
            driver.pipe("lines", "l", "a", 2);
            assertThat(driver.output("counts", Serdes.strings(), Serdes.longs()))
                    .isEmpty();
            assertThat(driver.<String, Long>store("word-counts").get("a"))
                    .as("committed state only")
                    .isNull();

            driver.pipe("lines", "l", "a", 3);
            assertThat(driver.output("counts", Serdes.strings(), Serdes.longs()))
                    .extracting(TestRecord::value)
                    .containsExactly(3L);

            driver.pipe("lines", "l", "a b", 4);
            driver.commit();
            assertThat(latestPerKey(driver.output("counts", Serdes.strings(), Serdes.longs())))
                    .isEqualTo(Map.of("a", 4L, "b", 1L));
        }
    }

    // ---- failures ----------------------------------------------------------------------------

    /** Forwards its input, then fails on "boom": the forward must never become visible. */
    private static final class ForwardThenFail implements Processor<String, String, String, String> {
        private ProcessorContext<String, String> context;

        @Override
        public void init(ProcessorContext<String, String> context) {
            this.context = context;
        }

        @Override
        public void process(Record<String, String> record) {
            context.forward(record.withValue(record.value() + "-out"));
            if (record.value().equals("boom")) {
                throw new IllegalStateException("cannot handle boom");
            }
        }
    }

    private static Topology forwardThenFail() {
        TopologyBuilder b = new TopologyBuilder();
        b.stream(Serdes.strings(), Serdes.strings(), "in")
                .<String, String>process(ForwardThenFail::new, "forward-then-fail")
                .to("out", Serdes.strings(), Serdes.strings());
        return b.build();
    }

    @Test
    void aFailingRecordIsDeadLetteredWithoutPartialOutput() {
        try (TestDriver driver = TestDriver.builder(forwardThenFail())
                .commitEvery(3)
                .inMemoryStores()
                .build()) {
            driver.pipe("in", 0, "k", "a", 10);
            driver.pipe("in", 0, "k", "boom", 20, Headers.empty().with("trace", "t-9"));
            driver.pipe("in", 0, "k", "b", 30);

            // The abort took back "a-out" and "boom-out"; the replay wrote "a-out" once, and "boom" went
            // to the dead-letter topic instead.
            assertThat(driver.allOutput("out", Serdes.strings(), Serdes.strings()))
                    .extracting(TestRecord::value)
                    .containsExactly("a-out", "b-out");
            List<TestRecord<byte[], byte[]>> dead = driver.deadLetters();
            assertThat(dead).hasSize(1);
            TestRecord<byte[], byte[]> letter = dead.get(0);
            assertThat(new String(letter.value(), StandardCharsets.UTF_8)).isEqualTo("boom");
            assertThat(letter.timestamp()).isEqualTo(20);
            Headers h = letter.headers();
            assertThat(h.lastString("trace")).isEqualTo("t-9");
            assertThat(h.lastString("weir.error.class")).isEqualTo(IllegalStateException.class.getName());
            assertThat(h.lastString("weir.error.message")).isEqualTo("cannot handle boom");
            assertThat(h.lastString("weir.error.stage")).isEqualTo("process");
            assertThat(h.lastString("weir.source.topic")).isEqualTo("in");
            assertThat(h.lastString("weir.source.partition")).isEqualTo("0");
            assertThat(h.lastString("weir.source.offset")).isEqualTo("1");
            assertThat(driver.deadLetters()).as("read already").isEmpty();
        }
    }

    @Test
    void undeserializableInputIsDeadLetteredAndProcessingGoesOn() {
        TopologyBuilder b = new TopologyBuilder();
        b.stream(Serdes.strings(), Serdes.longs(), "numbers")
                .mapValues(n -> n * 2)
                .to("doubled", Serdes.strings(), Serdes.longs());
        try (TestDriver driver = TestDriver.builder(b.build()).inMemoryStores().build()) {
            driver.input("numbers", Serdes.strings(), Serdes.bytes()).pipe("k", new byte[] {1, 2}, 5);
            driver.pipe("numbers", "k", 21L, 6);
            assertThat(driver.output("doubled", Serdes.strings(), Serdes.longs()))
                    .extracting(TestRecord::value)
                    .containsExactly(42L);
            assertThat(driver.deadLetters())
                    .singleElement()
                    .satisfies(r -> assertThat(r.headers().lastString("weir.error.stage"))
                            .isEqualTo("deserialize"));
        }
    }

    @Test
    void writingToATopicThatDoesNotExistIsDeadLettered() {
        TopologyBuilder b = new TopologyBuilder();
        b.stream(Serdes.strings(), Serdes.strings(), "in")
                .to(r -> "out-" + r.value(), Serdes.strings(), Serdes.strings());
        try (TestDriver driver = TestDriver.builder(b.build())
                .partitions("out-x", 2)
                .inMemoryStores()
                .build()) {
            driver.pipe("in", "k", "x", 1);
            driver.pipe("in", "k", "y", 2);
            assertThat(driver.output("out-x", Serdes.strings(), Serdes.strings()))
                    .hasSize(1);
            assertThat(driver.deadLetters())
                    .singleElement()
                    .satisfies(r -> assertThat(r.headers().lastString("weir.error.message"))
                            .contains("output topic 'out-y' does not exist"));
        }
    }

    @Test
    void withErrorModeFailAFailureStopsTheDriver() {
        try (TestDriver driver = TestDriver.builder(forwardThenFail())
                .config("error.mode", "fail")
                .inMemoryStores()
                .build()) {
            driver.pipe("in", "k", "a", 1);
            assertThatThrownBy(() -> driver.pipe("in", "k", "boom", 2))
                    .isInstanceOf(ProcessingException.class)
                    .hasMessageContaining("error.mode=fail")
                    .hasRootCauseMessage("cannot handle boom");
            assertThatThrownBy(() -> driver.pipe("in", "k", "b", 3))
                    .isInstanceOf(InstanceFailedException.class)
                    .hasMessageContaining("stopped after a failure");
            assertThat(driver.allOutput("out", Serdes.strings(), Serdes.strings()))
                    .extracting(TestRecord::value)
                    .containsExactly("a-out");
        }
    }

    // ---- time --------------------------------------------------------------------------------

    /** Counts records; a punctuation of the given clock forwards ("tick", its time). */
    private static final class Ticker implements Processor<String, String, String, Long> {
        private final PunctuationType type;

        Ticker(PunctuationType type) {
            this.type = type;
        }

        @Override
        public void init(ProcessorContext<String, Long> context) {
            context.schedule(Duration.ofSeconds(10), type, time -> context.forward(new Record<>("tick", time, time)));
        }

        @Override
        public void process(Record<String, String> record) {}
    }

    private static Topology ticker(PunctuationType type, String... topics) {
        TopologyBuilder b = new TopologyBuilder();
        b.stream(Serdes.strings(), Serdes.strings(), topics.length == 0 ? new String[] {"in"} : topics)
                .<String, Long>process(() -> new Ticker(type), "ticker")
                .to("ticks", Serdes.strings(), Serdes.longs());
        return b.build();
    }

    private static List<Long> ticks(TestDriver driver) {
        return driver.output("ticks", Serdes.strings(), Serdes.longs()).stream()
                .map(TestRecord::value)
                .toList();
    }

    @Test
    void advancingTheWallClockFiresWallClockPunctuations() {
        try (TestDriver driver = TestDriver.builder(ticker(PunctuationType.WALL_CLOCK))
                .startWallClock(T0)
                .inMemoryStores()
                .build()) {
            driver.advanceWallClock(Duration.ofSeconds(9));
            assertThat(ticks(driver)).isEmpty();
            driver.advanceWallClock(Duration.ofSeconds(1));
            assertThat(ticks(driver)).containsExactly(T0 + 10_000);
            driver.pipe("in", "k", "v", 5); // same wall clock: nothing due
            assertThat(ticks(driver)).isEmpty();
            driver.advanceWallClock(Duration.ofSeconds(25)); // fell behind: fires once, keeps its cadence
            assertThat(ticks(driver)).containsExactly(T0 + 35_000);
            assertThat(driver.wallClock().toEpochMilli()).isEqualTo(T0 + 35_000);
        }
    }

    @Test
    void pipedTimestampsAdvanceTheWatermarkAndFireEventTimePunctuations() {
        try (TestDriver driver = TestDriver.builder(ticker(PunctuationType.EVENT_TIME))
                .startWallClock(T0)
                .inMemoryStores()
                .build()) {
            assertThat(driver.watermark("in", 0)).isEqualTo(Long.MIN_VALUE);
            driver.pipe("in", "k", "v", 5_000);
            ticks(driver);
            driver.pipe("in", "k", "v", 12_000);
            assertThat(ticks(driver)).containsExactly(10_000L);
            driver.pipe("in", "k", "v", 13_000);
            driver.advanceWallClock(Duration.ofMinutes(5)); // wall-clock time moves no event-time schedule
            assertThat(ticks(driver)).isEmpty();
            driver.pipe("in", "k", "v", 35_000); // jumped two intervals: fires once, the latest
            assertThat(ticks(driver)).containsExactly(30_000L);
            assertThat(driver.watermark("in", 0)).isEqualTo(35_000);
        }
    }

    @Test
    void anIdlePartitionHoldsTheWatermarkUntilTheIdleTimeout() {
        // One source reads two topics: each task has two input partitions, left-p and right-p.
        try (TestDriver driver = TestDriver.builder(ticker(PunctuationType.EVENT_TIME, "left", "right"))
                .partitions("left", 2)
                .partitions("right", 2)
                .config("idle.timeout.ms", 10_000)
                .config("max.out.of.orderness.ms", 1_000)
                .startWallClock(T0)
                .inMemoryStores()
                .build()) {
            TaskId task = new TaskId(0, 1);
            driver.pipe("left", 1, "k", "v", 21_000);
            driver.pipe("left", 1, "k", "v", 25_000);
            assertThat(driver.watermark(task))
                    .as("right-1 has delivered nothing yet")
                    .isEqualTo(Long.MIN_VALUE);

            driver.advanceWallClock(Duration.ofMillis(9_999));
            assertThat(driver.watermark(task)).isEqualTo(Long.MIN_VALUE);
            assertThat(ticks(driver)).isEmpty();

            driver.advanceWallClock(Duration.ofMillis(1));
            assertThat(driver.watermark("right", 1)).isEqualTo(24_000);
            assertThat(ticks(driver)).containsExactly(20_000L);

            // Once it delivers again, the slower partition holds the watermark back again.
            driver.pipe("right", 1, "k", "v", 26_000);
            driver.pipe("left", 1, "k", "v", 40_000);
            assertThat(driver.watermark(task)).isEqualTo(25_000);
            assertThat(driver.watermark(new TaskId(0, 0))).isEqualTo(Long.MIN_VALUE);
        }
    }

    @Test
    void eachTaskKeepsItsOwnWatermark() {
        try (TestDriver driver = TestDriver.builder(ticker(PunctuationType.EVENT_TIME))
                .partitions("in", 2)
                .startWallClock(T0)
                .inMemoryStores()
                .build()) {
            TaskId task = new TaskId(0, 1);
            driver.pipe("in", 1, "k", "v", 30_000);
            assertThat(driver.watermark(task)).isEqualTo(30_000); // its only partition
            driver.pipe("in", 0, "k", "v", 7_000);
            assertThat(driver.watermark(new TaskId(0, 0))).isEqualTo(7_000);
            assertThat(driver.watermark(task)).isEqualTo(30_000);
        }
    }

    private static Topology windowedCount() {
        return windowedCount(false);
    }

    /** Counts per key in 1 s windows, emitted on close; {@code byValue}: per value, through a repartition topic. */
    private static Topology windowedCount(boolean byValue) {
        TopologyBuilder b = new TopologyBuilder();
        RecordStream<String, String> in = b.stream(Serdes.strings(), Serdes.strings(), "in");
        (byValue ? in.groupBy((k, v) -> v, Serdes.strings(), Serdes.strings()) : in.groupByKey())
                .windowedBy(TimeWindows.of(Duration.ofSeconds(1)))
                .emit(Emit.onWindowClose())
                .count("window-counts")
                .map((w, c) -> KeyValue.of(w.key() + "@" + w.start(), c))
                .to("out", Serdes.strings(), Serdes.longs());
        return b.build();
    }

    @Test
    void aRepartitionedWindowWaitsForTheSlowestTaskWritingToIt() {
        try (TestDriver driver = TestDriver.builder(windowedCount(true))
                .partitions("in", 2)
                .startWallClock(T0)
                .build()) {
            TaskId counting = new TaskId(1, partitionOf("x", 2)); // reads the repartition partition of "x"
            driver.pipe("in", 0, "a", "x", 5_000); // the task reading in-0 runs ahead
            assertThat(driver.watermark(counting))
                    .as("in-1's task has said nothing yet")
                    .isEqualTo(Long.MIN_VALUE);
            assertThat(driver.meterRegistry()
                            .get("weir.watermark.awaiting.writers")
                            .gauge()
                            .value())
                    .as("both counting partitions wait for in-1's task")
                    .isEqualTo(2);

            // Behind, but not late where it comes from: counted, not late downstream either.
            driver.pipe("in", 1, "b", "x", 300);
            assertThat(driver.watermark(counting)).isEqualTo(300);
            assertThat(driver.meterRegistry()
                            .get("weir.watermark.awaiting.writers")
                            .gauge()
                            .value())
                    .isZero();
            assertThat(driver.lateRecords()).isEmpty();
            assertThat(driver.output("out", Serdes.strings(), Serdes.longs())).isEmpty();

            driver.pipe("in", 1, "b", "x", 1_200); // in-1's task catches up: [0, 1000) closes
            assertThat(driver.watermark(counting)).isEqualTo(1_200);
            assertThat(driver.output("out", Serdes.strings(), Serdes.longs()))
                    .extracting(TestRecord::key, TestRecord::value)
                    .containsExactly(tuple("x@0", 1L));

            // Late where it comes from (in-0's task is at 5 000): late downstream too.
            driver.pipe("in", 0, "a", "x", 100);
            assertThat(driver.lateRecords())
                    .singleElement()
                    .satisfies(r -> assertThat(r.headers().lastString("weir.late.watermark"))
                            .isEqualTo("1200"));

            // Once both writing tasks are idle, nothing holds the window at [1000, 2000) open.
            driver.advanceWallClock(Duration.ofSeconds(30));
            assertThat(driver.watermark(counting)).isEqualTo(5_000);
            assertThat(driver.output("out", Serdes.strings(), Serdes.longs()))
                    .extracting(TestRecord::key, TestRecord::value)
                    .containsExactly(tuple("x@1000", 1L));
            assertThat(driver.output("test-app-window-counts-repartition", Serdes.strings(), Serdes.strings()))
                    .as("markers are not records")
                    .extracting(TestRecord::value)
                    .containsOnly("x");
        }
    }

    @Test
    void windowsCloseWithTheWatermarkAndLateRecordsAreWrittenAside() {
        try (TestDriver driver =
                TestDriver.builder(windowedCount()).startWallClock(T0).build()) {
            driver.pipe("in", "k", "a", 100);
            driver.pipe("in", "k", "b", 500);
            assertThat(driver.<String, Long>windowStore("window-counts").fetch("k", 0))
                    .isEqualTo(2L);
            assertThat(driver.output("out", Serdes.strings(), Serdes.longs())).isEmpty();

            driver.pipe("in", "k", "c", 1_200); // the watermark passes the end of [0, 1000)
            assertThat(driver.output("out", Serdes.strings(), Serdes.longs()))
                    .extracting(TestRecord::key, TestRecord::value)
                    .containsExactly(tuple("k@0", 2L));

            driver.pipe("in", "k", "late", 300);
            assertThat(driver.output("out", Serdes.strings(), Serdes.longs())).isEmpty();
            assertThat(driver.lateRecords()).singleElement().satisfies(r -> {
                assertThat(new String(r.value(), StandardCharsets.UTF_8)).isEqualTo("late");
                assertThat(r.headers().lastString("weir.late.window.start")).isEqualTo("0");
                assertThat(r.headers().lastString("weir.late.watermark")).isEqualTo("1200");
            });
        }
    }

    @Test
    void droppedLateRecordsAreCounted() {
        try (TestDriver driver = TestDriver.builder(windowedCount())
                .config("late.records.mode", "drop")
                .inMemoryStores()
                .build()) {
            driver.pipe("in", "k", "a", 1_500);
            driver.pipe("in", "k", "late", 300);
            assertThat(driver.meterRegistry().get("weir.records.late").counter().count())
                    .isEqualTo(1);
            assertThatThrownBy(driver::lateRecords)
                    .isInstanceOf(ConfigException.class)
                    .hasMessageContaining("'late.records.mode'")
                    .hasMessageContaining("drop");
        }
    }

    // ---- bad usage ---------------------------------------------------------------------------

    // ---- store TTLs ---------------------------------------------------------------------------

    /** Keeps the last value per key in store "recent". */
    private static final class Remember implements Processor<String, String, String, String> {
        private KeyValueStore<String, String> store;

        @Override
        public void init(ProcessorContext<String, String> context) {
            this.store = context.getStateStore("recent");
        }

        @Override
        public void process(Record<String, String> record) {
            store.put(record.key(), record.value());
        }
    }

    @Test
    void storeEntriesExpireWithTheDriversWallClockAndTheirDeleteIsLogged() {
        TopologyBuilder b = new TopologyBuilder();
        b.addSource("in", Serdes.strings(), Serdes.strings(), "in")
                .addProcessor("remember", Remember::new, "in")
                .addStateStore(
                        Stores.keyValueStore("recent", Serdes.strings(), Serdes.strings())
                                .withTtl(Duration.ofMinutes(5)),
                        "remember");
        try (TestDriver driver = TestDriver.builder(b.build())
                .startWallClock(T0)
                .inMemoryStores()
                .build()) {
            driver.pipe("in", "k", "v1", 1);
            ReadOnlyKeyValueStore<String, String> recent = driver.store("recent");
            assertThat(recent.get("k")).isEqualTo("v1");

            driver.advanceWallClock(Duration.ofMinutes(5).minusMillis(1));
            assertThat(recent.get("k")).as("one millisecond before the TTL").isEqualTo("v1");

            driver.advanceWallClock(Duration.ofMillis(1));
            assertThat(recent.get("k")).as("expired at the TTL").isNull();
            // The commit of that advance swept the entry: a tombstone follows the (TTL-stamped) write.
            List<TestRecord<String, byte[]>> changelog =
                    driver.allOutput("test-app-recent-changelog", Serdes.strings(), Serdes.bytes());
            assertThat(changelog).extracting(TestRecord::key).containsExactly("k", "k");
            assertThat(changelog.get(0).value()).isNotNull();
            assertThat(changelog.get(1).value()).isNull();
        }
    }

    @Test
    void badUsageFailsWithClearErrors() {
        try (TestDriver driver = TestDriver.builder(wordCount())
                .partitions("lines", 4)
                .inMemoryStores()
                .build()) {
            assertThatThrownBy(() -> driver.pipe("nope", "k", "v", 1))
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("unknown topic 'nope'")
                    .hasMessageContaining("[lines]");
            assertThatThrownBy(() -> driver.pipe("lines", 4, "k", "v", 1))
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("has 4 partition(s)")
                    .hasMessageContaining("no partition 4");
            assertThatThrownBy(() -> driver.pipe("lines", -1, "k", "v", 1))
                    .isInstanceOf(IllegalArgumentException.class);
            assertThatThrownBy(() -> driver.pipe("test-app-word-counts-repartition", "k", "v", 1))
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("internal topic");
            assertThatThrownBy(() -> driver.pipe("test-app-word-counts-changelog", "k", "v", 1))
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("internal topic");
            assertThatThrownBy(() -> driver.pipe("counts", "k", "v", 1))
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("not an input");
            assertThatThrownBy(() -> driver.pipe("lines", "k", 42L, 1)).isInstanceOf(IllegalArgumentException.class);
            assertThatThrownBy(() -> driver.pipe("lines", "k", "v", -5))
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("negative");
            assertThatThrownBy(() -> driver.output("nope", Serdes.strings(), Serdes.strings()))
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("unknown topic 'nope'");
            assertThatThrownBy(() -> driver.store("nope"))
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("no store named 'nope'");
            assertThatThrownBy(() -> driver.windowStore("word-counts"))
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("not a window store");
            assertThatThrownBy(() -> driver.watermark(new TaskId(7, 0)))
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("no task 7_0");
            assertThatThrownBy(() -> driver.advanceWallClock(Duration.ofSeconds(-1)))
                    .isInstanceOf(IllegalArgumentException.class);
            // None of that broke the driver.
            driver.pipe("lines", "k", "v", 1);
            assertThat(driver.output("counts", Serdes.strings(), Serdes.longs()))
                    .hasSize(1);
        }
    }

    @Test
    void badOptionsFailAtBuild() {
        assertThatThrownBy(() -> TestDriver.builder(wordCount())
                        .partitions("test-app-word-counts-repartition", 2)
                        .build())
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("internal topic");
        assertThatThrownBy(() -> TestDriver.builder(wordCount())
                        .config("processing.guarantee", "at_least_once")
                        .build())
                .isInstanceOf(ConfigException.class)
                .hasMessageContaining("exactly_once");
        assertThatThrownBy(() -> TestDriver.builder(wordCount())
                        .config("no.such.setting", 1)
                        .build())
                .isInstanceOf(ConfigException.class);
        assertThatThrownBy(() -> TestDriver.builder(wordCount()).partitions("lines", 0))
                .isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void aClosedDriverRefusesWork() {
        TestDriver driver = TestDriver.builder(upperCase()).inMemoryStores().build();
        driver.close();
        driver.close(); // idempotent
        assertThatThrownBy(() -> driver.pipe("in", "k", "v", 1))
                .isInstanceOf(InstanceStateException.class)
                .hasMessageContaining("closed");
    }

    @Test
    void manyRecordsOverManyPartitionsAreAllCounted() {
        try (TestDriver driver = TestDriver.builder(wordCount())
                .partitions("lines", 5)
                .commitEvery(50)
                .build()) {
            IntStream.range(0, 1_000).forEach(i -> driver.pipe("lines", "l" + i, "w" + (i % 7), i));
            driver.commit();
            Map<String, Long> counts = latestPerKey(driver.output("counts", Serdes.strings(), Serdes.longs()));
            assertThat(counts).hasSize(7);
            assertThat(counts.values().stream().mapToLong(Long::longValue).sum())
                    .isEqualTo(1_000);
            assertThat(driver.<String, Long>store("word-counts").get("w0")).isEqualTo(143L);
        }
    }
}
