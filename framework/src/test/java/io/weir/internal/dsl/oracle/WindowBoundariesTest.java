package io.weir.internal.dsl.oracle;

import static org.assertj.core.api.Assertions.assertThat;

import io.weir.internal.dsl.oracle.OracleStream.Input;
import io.weir.internal.dsl.oracle.OracleStream.WindowKind;
import io.weir.processor.TaskId;
import io.weir.testdriver.TestDriver;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Where Weir's windows deliberately differ from Kafka Streams' (time windows with a grace period,
 * sessions, both {@code suppress(untilWindowCloses)}), and the boundaries where they agree on a
 * behaviour that is easy to get wrong, each on a minimal input run through both. The oracle
 * ({@link WindowOracleTest}) compares everything else.
 *
 * <p>The differences:
 * <ol>
 *   <li><b>Timestamps of time-window results.</b> Weir stamps a window's result with the window's
 *       last instant, {@code end - 1}, whatever records it holds; Kafka Streams with the largest
 *       timestamp among its records. Weir's is deterministic from the window alone, so that a
 *       result's time does not depend on which records arrived. Session results are stamped with
 *       the session's end on both sides (the oracle compares them).</li>
 *   <li><b>Order of results of different keys that fire at the same watermark.</b> Both emit in
 *       ascending window end; among equal ends Weir orders by window start (then by serialized
 *       key: its store's time index), Kafka Streams by serialized key (its suppression buffer).
 *       Only results of different keys can differ, and Kafka orders records only within a
 *       partition, so the oracle compares the results of each key in order.</li>
 *   <li><b>A session record within the gap of a session that closed.</b> A session closes (and
 *       fires, with {@code suppress(untilWindowCloses)}) when the watermark the next record meets
 *       reaches {@code end + gap + grace}. Kafka Streams' store no longer returns it, so a record
 *       within its gap ({@code start - gap <= ts <= end + gap}) that does not end too early is
 *       aggregated without it: it starts a session beside it, extends an open session over its gap
 *       (bridging the two), or at exactly {@code W - gap - grace} starts a session of the same
 *       window {@code [ts, ts]}, which Kafka Streams emits a second time with only the new record
 *       (its store keeps the second value: the first record is lost from the standing result).
 *       Weir never extends or overlaps a closed session (DESIGN.md, Flink's rule): it reports
 *       such a record late, for the closed session it would touch, so sessions of a key stay more
 *       than the gap apart and {@code onWindowClose} emits each exactly once. This holds whether
 *       a record or a punctuation (an idle partition) moved the watermark, and across restarts:
 *       each key's last closed session is kept in a logged store. The oracle applies this
 *       difference to Kafka Streams by running it without the records it makes late
 *       ({@link OracleComparison#asWeirDiffers}, {@link ClosedSessionRule}).</li>
 * </ol>
 */
class WindowBoundariesTest {

    /** The one task of {@link WeirSide#topology}: one sub-topology, one input partition. */
    private static final TaskId TASK = new TaskId(0, 0);

    private static Input in(String key, long value, long timestamp) {
        return new Input(key, value, timestamp);
    }

    private static Emitted result(String key, long start, long end, Long value, long timestamp) {
        return new Emitted(key, start, end, value, timestamp);
    }

    /**
     * Record {@code offset} reported late by both of {@link WeirSide}'s aggregations, for the
     * closed session {@code [start, end]} it would touch, at {@code watermark}.
     */
    private static LateRecord[] lateInBoth(
            int offset, String key, long timestamp, long start, long end, long watermark) {
        return new LateRecord[] {
            new LateRecord(WeirSide.COUNTS, offset, key, timestamp, start, end, watermark),
            new LateRecord(WeirSide.SUMS, offset, key, timestamp, start, end, watermark)
        };
    }

    /**
     * Runs {@code stream} through both sides and asserts Weir's closed-session rule: the sums each
     * side emits, the record Weir reports late instead, and no other difference. Returns Kafka
     * Streams' results.
     */
    private static Results assertClosedSessionRule(
            OracleStream stream, List<Emitted> kafkaSums, List<Emitted> weirSums, LateRecord[] late) {
        Results weir = WeirSide.run(stream, true);
        Results kafka = KafkaStreamsOracle.run(stream);

        assertThat(OracleComparison.withoutFlush(kafka.sums())).containsExactlyElementsOf(kafkaSums);
        assertThat(OracleComparison.withoutFlush(weir.sums())).containsExactlyElementsOf(weirSums);
        assertThat(weir.late()).containsExactly(late);
        // The comparison models exactly this difference and nothing more.
        assertSameOtherwise(stream, kafka, weir);
        return kafka;
    }

    /** Beyond the difference a test shows, the comparison (which models the differences) finds none. */
    private static void assertSameOtherwise(OracleStream stream, Results kafka, Results weir) {
        assertThat(OracleComparison.differences(stream, kafka, weir)).isEmpty();
    }

    @Test
    void stampsTimeWindowResultsWithTheWindowsLastInstantWhereKafkaStreamsTakesTheLatestRecord() {
        OracleStream stream = OracleStream.of(WindowKind.TUMBLING, 10, 10, 0, 0, in("a", 1, 2), in("a", 2, 5));

        Results weir = WeirSide.run(stream, true);
        Results kafka = KafkaStreamsOracle.run(stream);

        assertThat(OracleComparison.withoutFlush(weir.counts())).containsExactly(result("a", 0, 10, 2L, 9));
        assertThat(OracleComparison.withoutFlush(weir.sums())).containsExactly(result("a", 0, 10, 3L, 9));
        assertThat(OracleComparison.withoutFlush(kafka.counts())).containsExactly(result("a", 0, 10, 2L, 5));
        assertThat(OracleComparison.withoutFlush(kafka.sums())).containsExactly(result("a", 0, 10, 3L, 5));
    }

    @Test
    void ordersSessionsOfDifferentKeysEndingTogetherByStartWhereKafkaStreamsOrdersByKey() {
        OracleStream stream =
                OracleStream.of(WindowKind.SESSION, 0, 0, 2, 0, in("k2", 1, 8), in("k2", 2, 10), in("k0", 4, 10));

        Results weir = WeirSide.run(stream, true);
        Results kafka = KafkaStreamsOracle.run(stream);

        assertThat(OracleComparison.withoutFlush(weir.counts()))
                .containsExactly(result("k2", 8, 10, 2L, 10), result("k0", 10, 10, 1L, 10));
        assertThat(OracleComparison.withoutFlush(kafka.counts()))
                .containsExactly(result("k0", 10, 10, 1L, 10), result("k2", 8, 10, 2L, 10));
        assertSameOtherwise(stream, kafka, weir); // per key, the same
    }

    @Test
    void reportsARecordAtTheClosingBoundaryLateWhereKafkaStreamsEmitsTheSessionAgain() {
        // gap 1, grace 0: a[80,80] closes and fires at watermark 81; a record at 80 that does not move
        // the watermark is not late by Kafka Streams' rule (80 >= 81 - 1) but cannot join it. Kafka
        // Streams starts a[80,80] again, emits it a second time and its last value loses the 83.
        // Weir (deliberately) never touches a closed session: it reports the record late.
        OracleStream stream =
                OracleStream.of(WindowKind.SESSION, 0, 0, 1, 0, in("a", 83, 80), in("b", 53, 81), in("a", 7, 80));

        Results kafka = assertClosedSessionRule(
                stream,
                List.of(result("a", 80, 80, 83L, 80), result("a", 80, 80, 7L, 80), result("b", 81, 81, 53L, 81)),
                List.of(result("a", 80, 80, 83L, 80), result("b", 81, 81, 53L, 81)),
                lateInBoth(2, "a", 80, 80, 80, 81));
        assertThat(kafka.droppedPerOffset()).containsOnly(0);
    }

    @Test
    void reportsARecordAtTheCloseOfASessionWithinItsGapLateWhereKafkaStreamsStartsASessionBesideIt() {
        // gap 1, grace 0: b@81 moves the watermark to 81, where a[80,80] closes and fires. a@81 joins
        // nothing else: Kafka Streams starts a[81,81], within a[80,80]'s gap; Weir reports it late.
        OracleStream stream =
                OracleStream.of(WindowKind.SESSION, 0, 0, 1, 0, in("a", 83, 80), in("b", 53, 81), in("a", 7, 81));

        Results kafka = assertClosedSessionRule(
                stream,
                List.of(result("a", 80, 80, 83L, 80), result("a", 81, 81, 7L, 81), result("b", 81, 81, 53L, 81)),
                List.of(result("a", 80, 80, 83L, 80), result("b", 81, 81, 53L, 81)),
                lateInBoth(2, "a", 81, 80, 80, 81));
        assertThat(kafka.droppedPerOffset()).containsOnly(0);
    }

    @Test
    void reportsARecordBridgingAClosedSessionAndAnOpenOneLateWhereKafkaStreamsExtendsTheOpenOne() {
        // gap 2, grace 0: a[10,10] closes at 12; at watermark 14, a@12 is within its gap and within
        // the gap of the open a[14,14]: Kafka Streams makes a[12,14], over a[10,10]'s gap
        OracleStream stream =
                OracleStream.of(WindowKind.SESSION, 0, 0, 2, 0, in("a", 1, 10), in("a", 2, 14), in("a", 4, 12));

        assertClosedSessionRule(
                stream,
                List.of(result("a", 10, 10, 1L, 10), result("a", 12, 14, 6L, 14)),
                List.of(result("a", 10, 10, 1L, 10), result("a", 14, 14, 2L, 14)),
                lateInBoth(2, "a", 12, 10, 10, 14));
    }

    @Test
    void reportsARecordWithinTheGapOfASessionClosedByAPunctuationLate() {
        // gap 2, grace 0. Weir reads a second topic whose partition holds the watermark at 0 until it
        // idles: then a punctuation, not a record, moves the watermark to 82, where a[80,80] closes
        // and fires. Kafka Streams' stream time is 82 after b@82; it starts a[81,81] within a[80,80]'s
        // gap, which Weir reports late.
        OracleStream stream =
                OracleStream.of(WindowKind.SESSION, 0, 0, 2, 0, in("a", 1, 80), in("b", 2, 82), in("a", 4, 81));
        Results weir;
        try (TestDriver driver = WeirSide.driver(WeirSide.topology(stream, List.of("in", "side")), true)
                .build()) {
            driver.pipe("side", OracleStream.FLUSH_KEY, 0L, 0);
            weir = WeirSide.run(stream, driver, (d, offset) -> {
                if (offset == 2) {
                    assertThat(d.watermark("in", 0)).isEqualTo(0);
                    d.advanceWallClock(Duration.ofMinutes(1)); // past idle.timeout.ms
                    assertThat(d.watermark("in", 0)).isEqualTo(82);
                }
            });
        }
        Results kafka = KafkaStreamsOracle.run(stream);

        assertThat(OracleComparison.withoutFlush(kafka.sums()))
                .containsExactly(result("a", 80, 80, 1L, 80), result("a", 81, 81, 4L, 81), result("b", 82, 82, 2L, 82));
        assertThat(OracleComparison.withoutFlush(weir.sums()))
                .containsExactly(result("a", 80, 80, 1L, 80), result("b", 82, 82, 2L, 82));
        assertThat(weir.late()).containsExactly(lateInBoth(2, "a", 81, 80, 80, 82));
        assertSameOtherwise(stream, kafka, weir);
    }

    @Test
    void reportsARecordWithinTheGapOfASessionThatClosedBeforeARestartLate() {
        // As the bridging case, with the task revoked and reassigned (restored) between a[10,10]
        // closing and a@12. RocksDB stores reopen without a[10,10], which expired after the commit.
        OracleStream stream =
                OracleStream.of(WindowKind.SESSION, 0, 0, 2, 0, in("a", 1, 10), in("a", 2, 14), in("a", 4, 12));
        Results weir;
        try (TestDriver driver =
                WeirSide.driver(WeirSide.topology(stream), false).build()) {
            weir = WeirSide.run(stream, driver, (d, offset) -> {
                if (offset == 2) {
                    d.commit();
                    assertThat(d.<String, Long>sessionStore(WeirSide.SUMS).fetchSession("a", 10, 10))
                            .isNull();
                    d.revoke(TASK);
                    d.reassign(TASK);
                }
            });
        }
        Results kafka = KafkaStreamsOracle.run(stream);

        assertThat(OracleComparison.withoutFlush(weir.sums()))
                .containsExactly(result("a", 10, 10, 1L, 10), result("a", 14, 14, 2L, 14));
        assertThat(weir.late()).containsExactly(lateInBoth(2, "a", 12, 10, 10, 14));
        assertSameOtherwise(stream, kafka, weir);
    }

    @Test
    void aRecordAtTheClosingBoundaryWithNoSessionToReplaceFormsItsOwnAsInKafkaStreams() {
        OracleStream stream =
                OracleStream.of(WindowKind.SESSION, 0, 0, 1, 0, in("a", 83, 80), in("b", 53, 81), in("c", 7, 80));

        Results weir = WeirSide.run(stream, true);
        Results kafka = KafkaStreamsOracle.run(stream);

        assertThat(weir.late()).isEmpty();
        assertThat(OracleComparison.withoutFlush(weir.sums())).contains(result("c", 80, 80, 7L, 80));
        assertSameOtherwise(stream, kafka, weir);
    }

    @Test
    void aRecordThatMovesTheWatermarkToTheClosingBoundaryStillExtendsTheSession() {
        // gap 1, grace 0: the record at 81 moves the watermark to 81, a[80,80]'s closing time, and joins it
        OracleStream stream = OracleStream.of(WindowKind.SESSION, 0, 0, 1, 0, in("a", 1, 80), in("a", 2, 81));

        Results weir = WeirSide.run(stream, true);
        Results kafka = KafkaStreamsOracle.run(stream);

        assertThat(OracleComparison.withoutFlush(weir.sums())).containsExactly(result("a", 80, 81, 3L, 81));
        assertSameOtherwise(stream, kafka, weir);
    }

    @Test
    void reportsARecordLateForTheSessionItWouldHaveMadeWithTheWatermarkItMet() {
        // gap 2, grace 1: at watermark 90 sessions ending before 87 are closed
        OracleStream stream = OracleStream.of(
                WindowKind.SESSION, 0, 0, 2, 1, in("a", 1, 80), in("b", 1, 90), in("a", 1, 86), in("a", 1, 87));

        Results weir = WeirSide.run(stream, true);
        Results kafka = KafkaStreamsOracle.run(stream);

        assertThat(weir.late()).containsExactly(lateInBoth(2, "a", 86, 86, 86, 90));
        assertThat(kafka.droppedPerOffset()).containsExactly(0, 0, 2, 0, 0); // both aggregations
        assertThat(OracleComparison.withoutFlush(weir.counts()))
                .containsExactly(result("a", 80, 80, 1L, 80), result("a", 87, 87, 1L, 87), result("b", 90, 90, 1L, 90));
        assertSameOtherwise(stream, kafka, weir);
    }
}
