package io.weir.dsl;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;

import io.weir.Topology;
import io.weir.TopologyBuilder;
import io.weir.processor.TaskId;
import io.weir.serde.Serdes;
import io.weir.state.KeyValueIterator;
import io.weir.testdriver.TestDriver;
import io.weir.testdriver.TestRecord;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/** Stream-stream joins through the whole runtime (the test driver): windows, unmatched results, lateness, pruning. */
class StreamJoinsTest {

    enum Kind {
        INNER,
        LEFT,
        OUTER
    }

    private static Topology topology(Kind kind, JoinWindows windows) {
        TopologyBuilder b = new TopologyBuilder();
        RecordStream<String, String> left = b.stream(Serdes.strings(), Serdes.strings(), "left");
        RecordStream<String, String> right = b.stream(Serdes.strings(), Serdes.strings(), "right");
        ValueJoiner<String, String, String> joiner = (l, r) -> l + "+" + r;
        RecordStream<String, String> joined = switch (kind) {
            case INNER -> left.join(right, joiner, windows, "pairs");
            case LEFT -> left.leftJoin(right, joiner, windows, "pairs");
            case OUTER -> left.outerJoin(right, joiner, windows, "pairs");
        };
        joined.to("joined", Serdes.strings(), Serdes.strings());
        return b.build();
    }

    private static List<TestRecord<String, String>> joined(TestDriver driver) {
        return driver.output("joined", Serdes.strings(), Serdes.strings());
    }

    @Test
    void recordsOfOneKeyCloseEnoughInTimeJoinOnceTheSecondArrivesStampedWithTheLaterTime() {
        try (TestDriver driver = TestDriver.builder(topology(Kind.INNER, JoinWindows.of(Duration.ofMillis(10))))
                .build()) {
            driver.pipe("left", "k", "a", 10);
            driver.pipe("right", "k", "x", 15);
            driver.pipe("right", "k", "y", 30);
            driver.pipe("left", "k", "b", 25); // x at 15 and y at 30 are both within 10
            driver.pipe("left", "other", "c", 26);

            assertThat(joined(driver))
                    .extracting(TestRecord::key, TestRecord::value, TestRecord::timestamp)
                    .containsExactly(tuple("k", "a+x", 15L), tuple("k", "b+x", 25L), tuple("k", "b+y", 30L));
        }
    }

    @Test
    void beforeAndAfterBoundTheOtherSidesTimesRelativeToThisSide() {
        JoinWindows onlyLater = JoinWindows.of(Duration.ofMillis(10)).before(Duration.ZERO);
        try (TestDriver driver =
                TestDriver.builder(topology(Kind.INNER, onlyLater)).build()) {
            driver.pipe("right", "k", "early", 5);
            driver.pipe("left", "k", "a", 10);
            driver.pipe("right", "k", "late", 20);

            assertThat(joined(driver)).extracting(TestRecord::value).containsExactly("a+late");
        }
    }

    /** No spurious unmatched result: a left record that matches later never shows up with null first. */
    @Test
    void aLeftJoinEmitsAnUnmatchedRecordOnlyOnceNoRecordCanMatchItAnyMore() {
        JoinWindows windows = JoinWindows.of(Duration.ofMillis(10)).allowedLateness(Duration.ofMillis(5));
        try (TestDriver driver =
                TestDriver.builder(topology(Kind.LEFT, windows)).build()) {
            driver.pipe("left", "k", "a", 10);
            clock(driver, 24); // the watermark is 24
            driver.pipe("right", "k", "x", 20); // not late (24 - 5 <= 20): matches a
            driver.pipe("left", "k", "b", 40);
            clock(driver, 55); // 40 + 10 + 5 = 55: a record of the right at 50 could still come
            assertThat(ofKey(driver, "k")).containsExactly(tuple("a+x", 20L));

            clock(driver, 56); // now none can

            assertThat(ofKey(driver, "k")).containsExactly(tuple("a+x", 20L), tuple("b+null", 40L));
        }
    }

    /** Moves the watermark to {@code t} with a record of key "clock" on each side. */
    private static void clock(TestDriver driver, long t) {
        driver.pipe("left", "clock", "-", t);
        driver.pipe("right", "clock", "-", t);
    }

    private static List<org.assertj.core.groups.Tuple> ofKey(TestDriver driver, String key) {
        return driver.allOutput("joined", Serdes.strings(), Serdes.strings()).stream()
                .filter(r -> key.equals(r.key()))
                .map(r -> tuple(r.value(), r.timestamp()))
                .toList();
    }

    @Test
    void anOuterJoinEmitsTheUnmatchedRecordsOfBothSides() {
        try (TestDriver driver = TestDriver.builder(topology(Kind.OUTER, JoinWindows.of(Duration.ofMillis(5))))
                .build()) {
            driver.pipe("left", "k", "a", 10);
            driver.pipe("right", "j", "x", 12);
            driver.pipe("left", "end", "e", 100);
            driver.pipe("right", "end", "f", 100);

            assertThat(joined(driver))
                    .extracting(TestRecord::key, TestRecord::value, TestRecord::timestamp)
                    .containsExactly(tuple("k", "a+null", 10L), tuple("j", "null+x", 12L), tuple("end", "e+f", 100L));
        }
    }

    @Test
    void aRecordLaterThanTheAllowedLatenessGoesToTheLateRecordsAndJoinsNothing() {
        try (TestDriver driver = TestDriver.builder(topology(Kind.LEFT, JoinWindows.of(Duration.ofMillis(50))))
                .build()) {
            driver.pipe("left", "k", "a", 100);
            driver.pipe("right", "k", "x", 100);
            driver.pipe("right", "k", "old", 99); // 99 < watermark 100: late
            driver.pipe("left", "k", "older", 60);

            assertThat(joined(driver)).extracting(TestRecord::value).containsExactly("a+x");
            assertThat(driver.lateRecords()).hasSize(2);
        }
    }

    /** The unmatched results due at a watermark are emitted once, across the task closing and reopening. */
    @Test
    void unmatchedResultsAreEmittedOnceAcrossARevocation() {
        try (TestDriver driver = TestDriver.builder(topology(Kind.LEFT, JoinWindows.of(Duration.ofMillis(5))))
                .build()) {
            driver.pipe("left", "k", "a", 10);
            driver.pipe("left", "k", "b", 30);
            driver.pipe("right", "j", "x", 30); // watermark 30: a is unmatchable
            TaskId task = driver.tasks().iterator().next();
            driver.revoke(task);
            driver.reassign(task);
            driver.pipe("left", "j", "c", 50);
            driver.pipe("right", "j", "y", 50); // watermark 50: b is unmatchable

            assertThat(joined(driver)).extracting(TestRecord::value).containsExactly("a+null", "b+null", "c+y");
        }
    }

    /**
     * Buffers hold a side's records only while the other side can still join them, over a long run
     * (100,000 records over 500,000 ms of event time): left records join right ones up to 20 ms later,
     * right ones left ones up to 100 ms later, with 30 ms of lateness. Left records of keys k5 and
     * k6 never find a right record (right keys are k0 to k4): in a left or outer join each is
     * emitted unmatched once, and pruned all the same; every right record finds a left one.
     */
    @ParameterizedTest
    @EnumSource(Kind.class)
    void theBuffersKeepOnlyWhatCanStillJoinAsTimePasses(Kind kind) {
        JoinWindows windows = JoinWindows.of(Duration.ofMillis(100))
                .after(Duration.ofMillis(20))
                .allowedLateness(Duration.ofMillis(30));
        long end = 500_000;
        try (TestDriver driver = TestDriver.builder(topology(kind, windows))
                .inMemoryStores()
                .commitEvery(100)
                .build()) {
            long unmatched = 0;
            for (long t = 0; t < end; t += 10) {
                long left = (t / 10) % 7;
                driver.pipe("left", "k" + left, "l", t);
                driver.pipe("right", "k" + (t / 10) % 5, "r", t);
                if (left >= 5 && t + 20 + 30 < end - 10) {
                    unmatched++; // due once the watermark passes t + 20 + 30
                }
            }
            driver.commit();
            long last = end - 10;
            assertThat(times(driver, "pairs-left"))
                    .allMatch(t -> t >= last - 30 - 20 - 1)
                    .hasSizeLessThan(8);
            assertThat(times(driver, "pairs-right"))
                    .allMatch(t -> t >= last - 30 - 100 - 1)
                    .hasSizeLessThan(16);
            // What an operator sees: weir.store.entries of each buffer, bounded by retention, not by the 50,000 records
            assertThat(entries(driver, "pairs-left"))
                    .isEqualTo(times(driver, "pairs-left").size())
                    .isLessThan(8);
            assertThat(entries(driver, "pairs-right"))
                    .isEqualTo(times(driver, "pairs-right").size())
                    .isLessThan(16);
            List<TestRecord<String, String>> all = driver.allOutput("joined", Serdes.strings(), Serdes.strings());
            assertThat(all.stream().filter(r -> r.value().endsWith("+null")).count())
                    .isEqualTo(kind == Kind.INNER ? 0 : unmatched);
            assertThat(all).noneMatch(r -> r.value().startsWith("null+")); // every right record finds a left one
        }
    }

    private static long entries(TestDriver driver, String store) {
        return Math.round(driver.meterRegistry()
                .get("weir.store.entries")
                .tag("store", store)
                .gauge()
                .value());
    }

    private static List<Long> times(TestDriver driver, String store) {
        List<Long> times = new java.util.ArrayList<>();
        try (KeyValueIterator<io.weir.state.Windowed<String>, Object> all =
                driver.<String, Object>windowStore(store).fetchAll(Long.MIN_VALUE, Long.MAX_VALUE)) {
            all.forEachRemaining(e -> times.add(e.key().start()));
        }
        return times;
    }

    @Test
    void twoReKeyedStreamsAreRepartitionedToOneCountBeforeTheyJoin() {
        TopologyBuilder b = new TopologyBuilder();
        RecordStream<String, String> clicks = b.stream(Serdes.strings(), Serdes.strings(), "clicks")
                .selectKey((k, user) -> user)
                .withSerdes(Serdes.strings(), Serdes.strings());
        RecordStream<String, String> views = b.stream(Serdes.strings(), Serdes.strings(), "views")
                .selectKey((k, user) -> user)
                .withSerdes(Serdes.strings(), Serdes.strings());
        clicks.join(views, (c, v) -> c + "|" + v, JoinWindows.of(Duration.ofMillis(5)), "click-view")
                .to("joined", Serdes.strings(), Serdes.strings());
        try (TestDriver driver = TestDriver.builder(b.build())
                .partitions("clicks", 2)
                .partitions("views", 5)
                .build()) {
            for (int i = 0; i < 10; i++) {
                driver.pipe("clicks", i % 2, "c" + i, "u" + i, 100 + i);
                driver.pipe("views", i % 5, "v" + i, "u" + i, 100 + i);
            }
            assertThat(joined(driver))
                    .extracting(TestRecord::key)
                    .containsExactlyInAnyOrder("u0", "u1", "u2", "u3", "u4", "u5", "u6", "u7", "u8", "u9");
        }
    }
}
