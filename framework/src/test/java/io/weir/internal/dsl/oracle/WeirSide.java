package io.weir.internal.dsl.oracle;

import io.weir.Topology;
import io.weir.TopologyBuilder;
import io.weir.dsl.Emit;
import io.weir.dsl.GroupedStream;
import io.weir.dsl.RecordStream;
import io.weir.dsl.SessionWindows;
import io.weir.dsl.TimeWindows;
import io.weir.internal.dsl.oracle.OracleStream.Input;
import io.weir.serde.Serdes;
import io.weir.state.Windowed;
import io.weir.testdriver.TestDriver;
import io.weir.testdriver.TestRecord;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.function.ObjIntConsumer;

/**
 * Runs an {@link OracleStream} through Weir's {@link TestDriver} (the production runtime without a
 * broker): the same windows with {@code grace} as allowed lateness, {@code Emit.onWindowClose()},
 * a {@code count} (store {@value #COUNTS}) and a {@code reduce(Long::sum)} (store {@value #SUMS}),
 * {@code max.out.of.orderness.ms=0} and {@code late.records.mode=topic}. The input topic has one
 * partition, so the watermark is the largest timestamp seen. It commits every
 * {@value #COMMIT_EVERY} records, so that records meet windows that closed since the last commit
 * (still in the window store) as well as earlier ones (which expiry dropped after a commit).
 */
final class WeirSide {

    static final String COUNTS = "counts";
    static final String SUMS = "sums";
    static final int COMMIT_EVERY = 3;

    private WeirSide() {}

    /** The topology for {@code stream}'s windows; results go to the topics {@value #COUNTS} and {@value #SUMS}. */
    static Topology topology(OracleStream stream) {
        return topology(stream, List.of("in"));
    }

    /**
     * The topology for {@code stream}'s windows over the records of {@code inputs} (one source):
     * with a second topic beside {@code "in"}, a task reads a partition of each, and one that idles
     * lets the watermark move without a record.
     */
    static Topology topology(OracleStream stream, List<String> inputs) {
        TopologyBuilder builder = new TopologyBuilder();
        RecordStream<String, Long> in = builder.stream(Serdes.strings(), Serdes.longs(), inputs.toArray(String[]::new));
        GroupedStream<String, Long> grouped = in.groupByKey();
        Duration grace = Duration.ofMillis(stream.grace());
        if (stream.kind() == OracleStream.WindowKind.SESSION) {
            SessionWindows windows = SessionWindows.withInactivityGap(Duration.ofMillis(stream.gap()))
                    .allowedLateness(grace);
            grouped.windowedBy(windows).emit(Emit.onWindowClose()).count(COUNTS).to(COUNTS);
            grouped.windowedBy(windows)
                    .emit(Emit.onWindowClose())
                    .reduce(Long::sum, SUMS)
                    .to(SUMS);
        } else {
            TimeWindows windows = TimeWindows.of(Duration.ofMillis(stream.size()))
                    .advanceBy(Duration.ofMillis(stream.advance()))
                    .allowedLateness(grace);
            grouped.windowedBy(windows).emit(Emit.onWindowClose()).count(COUNTS).to(COUNTS);
            grouped.windowedBy(windows)
                    .emit(Emit.onWindowClose())
                    .reduce(Long::sum, SUMS)
                    .to(SUMS);
        }
        return builder.build();
    }

    /** A driver as the oracle tests use it; {@code inMemory} keeps the stores in memory instead of RocksDB. */
    static TestDriver.Builder driver(Topology topology, boolean inMemory) {
        TestDriver.Builder builder = TestDriver.builder(topology)
                .config("max.out.of.orderness.ms", 0)
                .config("late.records.mode", "topic")
                .startWallClock(0)
                .commitEvery(COMMIT_EVERY);
        if (inMemory) {
            builder.inMemoryStores();
        }
        return builder;
    }

    static Results run(OracleStream stream, boolean inMemory) {
        try (TestDriver driver = driver(topology(stream), inMemory).build()) {
            return run(stream, driver, (d, offset) -> {});
        }
    }

    /**
     * Pipes {@code stream} into {@code driver} (built by {@link #driver} for {@link #topology},
     * maybe with other settings), calling {@code beforeRecord} with each offset before its record;
     * commits and reads what it committed.
     */
    static Results run(OracleStream stream, TestDriver driver, ObjIntConsumer<TestDriver> beforeRecord) {
        for (int offset = 0; offset < stream.inputs().size(); offset++) {
            Input input = stream.inputs().get(offset);
            beforeRecord.accept(driver, offset);
            driver.pipe("in", input.key(), input.value(), input.timestamp());
        }
        driver.commit();
        List<LateRecord> late = lateRecords(driver);
        int[] droppedPerOffset = new int[stream.inputs().size()];
        late.forEach(l -> droppedPerOffset[l.offset()]++);
        return new Results(emitted(driver, COUNTS), emitted(driver, SUMS), droppedPerOffset, late);
    }

    /**
     * The results committed to {@code topic} since the last read. Checks that each carries the
     * {@code weir.pane} header of {@code onWindowClose}: {@code final} for a result, {@code retract}
     * for a {@code null}.
     */
    static List<Emitted> emitted(TestDriver driver, String topic) {
        List<Emitted> emitted = new ArrayList<>();
        for (TestRecord<Windowed<String>, Long> r :
                driver.output(topic, Serdes.windowed(Serdes.strings()), Serdes.longs())) {
            String pane = r.headers().lastString("weir.pane");
            String expected = r.value() == null ? "retract" : "final";
            if (!expected.equals(pane)) {
                throw new AssertionError("weir.pane of " + r + " is " + pane + ", expected " + expected);
            }
            emitted.add(new Emitted(r.key().key(), r.key().start(), r.key().end(), r.value(), r.timestamp()));
        }
        return emitted;
    }

    /** The records written to the late-records topic since the last call, with their headers read. */
    static List<LateRecord> lateRecords(TestDriver driver) {
        List<LateRecord> late = new ArrayList<>();
        for (TestRecord<byte[], byte[]> r : driver.lateRecords()) {
            late.add(new LateRecord(
                    r.headers().lastString("weir.late.operator"),
                    Integer.parseInt(r.headers().lastString("weir.source.offset")),
                    new String(r.key(), StandardCharsets.UTF_8),
                    r.timestamp(),
                    Long.parseLong(r.headers().lastString("weir.late.window.start")),
                    Long.parseLong(r.headers().lastString("weir.late.window.end")),
                    Long.parseLong(r.headers().lastString("weir.late.watermark"))));
        }
        return late;
    }
}
