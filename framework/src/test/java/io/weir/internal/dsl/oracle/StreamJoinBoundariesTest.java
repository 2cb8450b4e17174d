package io.weir.internal.dsl.oracle;

import static io.weir.internal.dsl.oracle.StreamJoinOracleStream.in;
import static io.weir.internal.dsl.oracle.StreamJoinOracleStream.withoutValue;
import static org.assertj.core.api.Assertions.assertThat;

import io.weir.internal.dsl.oracle.JoinResults.Output;
import io.weir.internal.dsl.oracle.StreamJoinOracleStream.Input;
import io.weir.internal.dsl.oracle.StreamJoinOracleStream.Kind;
import io.weir.serde.Serdes;
import io.weir.testdriver.TestDriver;
import io.weir.testdriver.TestRecord;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Where Weir's stream-stream joins deliberately differ from Kafka Streams' 4.4, and the boundaries
 * where they agree on a behaviour that is easy to get wrong, each on a minimal input run through
 * both ({@link StreamJoinKafkaStreamsOracle}, {@link StreamJoinWeirSide}: the watermark is Kafka
 * Streams' stream time, the largest time seen over both inputs). The oracle
 * ({@link StreamJoinOracleTest}) compares everything else, with these differences applied
 * ({@link StreamJoinOracleComparison#asWeirDiffers}). A value names its input record: {@code 0&2}
 * joins input 0 (left) with input 2 (right), {@code 0&null} is input 0 unmatched.
 *
 * <p>The differences:
 * <ol>
 *   <li><b>Late records</b> ({@code t < W - grace}). Weir writes them to the late-records topic
 *       and joins nothing with them. Kafka Streams' join has no lateness check: a late record joins
 *       what the other side's store still holds, is buffered unless its own store refuses it as
 *       expired (then counted dropped), so that later records join it too, and on an outer side is
 *       emitted unmatched (at once when its window is behind stream time).</li>
 *   <li><b>When unmatched results are emitted.</b> Both emit a record of an outer side unmatched
 *       once stream time is past {@code t + after + grace}, before the results of the record that
 *       moved it there. Weir does so at any record that moves the watermark, left side's results
 *       first, then the right's; Kafka Streams only at a record with key and value at stream time,
 *       in time order over both sides, and, with an asymmetric window, only once the bound of the
 *       arriving record's side is passed as well. So results may come later, or in another order.</li>
 *   <li><b>Out-of-order records within the grace.</b> Kafka Streams emits a record whose window is
 *       already behind stream time ({@code t + after < W}) unmatched at once, though a record of the
 *       other side within the grace can still join it: then it emits the join as well, after the
 *       unmatched result. Weir waits for the grace, and emits only the join.</li>
 *   <li><b>Records at the window store's bound.</b> Kafka Streams keeps a side's records in a window
 *       store of retention {@code before + after + grace}, measured from the largest time of that
 *       side, and refuses or hides records at or beyond it. With time difference 0 and no grace it
 *       keeps nothing, so it joins nothing; with time difference 0 it refuses a record at exactly
 *       {@code W - grace}, the oldest that is not late; with {@code before = 0} it hides a record at
 *       {@code W - grace - after} from a record at {@code W - grace}. Weir buffers every record that
 *       is not late while a record that is not late can join it, and joins these.</li>
 *   <li><b>A record without a value on an outer side.</b> Weir emits it unmatched at once
 *       ({@code joiner(null, null)}), as it emits every record of an outer side that cannot join;
 *       Kafka Streams drops it (and counts it dropped). Both emit a record without a key but with a
 *       value unmatched at once, and both drop either on an inner side (Weir does not report these
 *       late: they are not late, they cannot join).</li>
 *   <li><b>The watermark of a join whose inputs are separate partitions</b> (not a join difference,
 *       but what a user of the driver sees). Weir's watermark is the smallest of its input
 *       partitions' times, and a partition without records holds it back until
 *       {@code idle.timeout.ms} of wall-clock time: with the default timeout and the driver's clock
 *       standing still, records of one side alone do not move it, where Kafka Streams' stream time
 *       is the largest time over both. The oracle sets {@code idle.timeout.ms=0} to compare joins
 *       under one time.</li>
 * </ol>
 * Kafka Streams also looks for unmatched results at most once per second of wall-clock time
 * (an internal setting, turned off on the oracle's side).
 */
class StreamJoinBoundariesTest {

    private static final String L = StreamJoinOracleStream.LEFT;
    private static final String R = StreamJoinOracleStream.RIGHT;

    private static Output out(String key, String value, long timestamp) {
        return new Output(key, value, timestamp);
    }

    private record Both(StreamJoinOracleStream stream, StreamJoinResults kafka, StreamJoinResults weir) {
        List<String> differences() {
            return StreamJoinOracleComparison.differences(stream, kafka, weir);
        }
    }

    private static Both run(Kind kind, long before, long after, long grace, Input... inputs) {
        StreamJoinOracleStream stream = StreamJoinOracleStream.of(kind, before, after, grace, inputs);
        return new Both(stream, StreamJoinKafkaStreamsOracle.run(stream), StreamJoinWeirSide.run(stream, true));
    }

    // ---- 1. late records ----------------------------------------------------------------------

    @Test
    void anInnerJoinReportsALateRecordLateWhereKafkaStreamsJoinsItWithWhatItsStoreHolds() {
        Both both = run(Kind.INNER, 10, 10, 0, in(L, "k", 20), in(R, "j", 30), in(R, "k", 15));

        assertThat(both.kafka().outputs()).containsExactly(List.of(), List.of(), List.of(out("k", "0&2", 20)));
        assertThat(both.kafka().dropped()).containsExactly(0, 0, 0);
        assertThat(both.weir().outputs()).containsExactly(List.of(), List.of(), List.of());
        assertThat(both.weir().dropped()).containsExactly(0, 0, 1);
        assertThat(both.differences()).isEmpty();
    }

    @Test
    void aLaterRecordDoesNotJoinALateOneWhereKafkaStreamsBufferedIt() {
        Both both = run(Kind.INNER, 15, 15, 0, in(L, "k", 20), in(R, "j", 30), in(L, "k", 18), in(R, "k", 30));

        assertThat(both.kafka().outputs().get(3)).containsExactly(out("k", "2&3", 30), out("k", "0&3", 30));
        assertThat(both.weir().outputs())
                .containsExactly(List.of(), List.of(), List.of(), List.of(out("k", "0&3", 30)));
        assertThat(both.weir().dropped()).containsExactly(0, 0, 1, 0);
        assertThat(both.differences()).isEmpty();
    }

    @Test
    void aLeftJoinGivesNothingForALateRecordWhereKafkaStreamsEmitsItUnmatched() {
        Both both = run(Kind.LEFT, 5, 5, 0, in(R, "j", 30), in(L, "k", 10));

        assertThat(both.kafka().outputs()).containsExactly(List.of(), List.of(out("k", "1&null", 10)));
        assertThat(both.weir().outputs()).containsExactly(List.of(), List.of());
        assertThat(both.weir().dropped()).containsExactly(0, 1);
        assertThat(both.differences()).isEmpty();
    }

    // ---- 2. when unmatched results are emitted ------------------------------------------------

    @Test
    void emitsUnmatchedResultsAtARecordWithoutAKeyThatMovesTheWatermarkWhereKafkaStreamsWaitsForAKeyAndValue() {
        Both both = run(Kind.LEFT, 5, 5, 0, in(L, "k", 0), in(R, null, 20), in(R, "j", 20));

        assertThat(both.kafka().outputs()).containsExactly(List.of(), List.of(), List.of(out("k", "0&null", 0)));
        assertThat(both.weir().outputs()).containsExactly(List.of(), List.of(out("k", "0&null", 0)), List.of());
        assertThat(both.differences()).isEmpty();
    }

    @Test
    void emitsTheLeftSidesUnmatchedResultsFirstWhereKafkaStreamsOrdersBothSidesByTime() {
        Both both = run(Kind.OUTER, 5, 5, 0, in(R, "j", 0), in(L, "k", 1), in(L, "z", 100));

        assertThat(both.kafka().outputs().get(2)).containsExactly(out("j", "null&0", 0), out("k", "1&null", 1));
        assertThat(both.weir().outputs().get(2)).containsExactly(out("k", "1&null", 1), out("j", "null&0", 0));
        assertThat(both.differences()).isEmpty();
    }

    @Test
    void emitsTheUnmatchedResultsOfAnAsymmetricWindowAtTheirSidesBoundWhereKafkaStreamsWaitsForTheArrivingSidesBound() {
        // before 0, after 10: a right record is due once W > t + 0, a left one once W > t + 10
        Both both = run(Kind.OUTER, 0, 10, 0, in(R, "k", 0), in(L, "j", 5), in(L, "j", 11));

        assertThat(both.kafka().outputs()).containsExactly(List.of(), List.of(), List.of(out("k", "null&0", 0)));
        assertThat(both.weir().outputs()).containsExactly(List.of(), List.of(out("k", "null&0", 0)), List.of());
        assertThat(both.differences()).isEmpty();
    }

    @Test
    void emitsUnmatchedResultsBeforeTheResultsOfTheRecordThatMovedTheWatermarkAsKafkaStreamsDoes() {
        Both both = run(Kind.LEFT, 5, 5, 0, in(L, "k", 0), in(L, "j", 10), in(R, "j", 10));

        assertThat(both.weir().outputs())
                .containsExactly(List.of(), List.of(out("k", "0&null", 0)), List.of(out("j", "1&2", 10)));
        assertThat(both.kafka().outputs()).isEqualTo(both.weir().outputs());
        assertThat(both.differences()).isEmpty();
    }

    @Test
    void emitsAnUnmatchedResultOnlyOnceTheWatermarkIsPastTheWindowAndTheGraceAsKafkaStreamsDoes() {
        // 0 + after 5 + grace 3 = 8: due at W = 9, not at 8
        Both both = run(Kind.LEFT, 5, 5, 3, in(L, "k", 0), in(R, "j", 8), in(R, "j", 9));

        assertThat(both.weir().outputs()).containsExactly(List.of(), List.of(), List.of(out("k", "0&null", 0)));
        assertThat(both.kafka().outputs()).isEqualTo(both.weir().outputs());
        assertThat(both.differences()).isEmpty();
    }

    // ---- 3. out-of-order records within the grace ---------------------------------------------

    @Test
    void aLeftJoinWaitsForTheGraceBeforeEmittingAnOutOfOrderRecordUnmatchedWhereKafkaStreamsEmitsItAndThenItsJoin() {
        // W = 20, grace 10: the left record at 10 is not late, and the right one at 11 joins it
        Both both = run(Kind.LEFT, 2, 2, 10, in(L, "j", 20), in(L, "k", 10), in(R, "k", 11));

        assertThat(both.kafka().outputs())
                .containsExactly(List.of(), List.of(out("k", "1&null", 10)), List.of(out("k", "1&2", 11)));
        assertThat(both.weir().outputs()).containsExactly(List.of(), List.of(), List.of(out("k", "1&2", 11)));
        assertThat(both.differences()).isEmpty();
    }

    // ---- 4. records at the window store's bound -----------------------------------------------

    @Test
    void joinsRecordsAtOneTimeWithTimeDifferenceZeroAndNoGraceWhereKafkaStreamsBuffersNothing() {
        Both both = run(Kind.INNER, 0, 0, 0, in(L, "k", 5), in(R, "k", 5));

        assertThat(both.kafka().outputs()).containsExactly(List.of(), List.of());
        assertThat(both.kafka().dropped()).containsExactly(1, 1);
        assertThat(both.weir().outputs()).containsExactly(List.of(), List.of(out("k", "0&1", 5)));
        assertThat(both.weir().dropped()).containsExactly(0, 0);
        assertThat(both.differences()).isEmpty();
    }

    @Test
    void joinsARecordAtExactlyTheGraceBoundWithTimeDifferenceZeroWhereKafkaStreamsRefusesToBufferIt() {
        // W = 10, grace 2: 8 is the oldest time that is not late
        Both both = run(Kind.INNER, 0, 0, 2, in(L, "j", 10), in(L, "k", 8), in(R, "k", 8));

        assertThat(both.kafka().outputs()).containsExactly(List.of(), List.of(), List.of());
        assertThat(both.kafka().dropped()).containsExactly(0, 1, 0);
        assertThat(both.weir().outputs()).containsExactly(List.of(), List.of(), List.of(out("k", "1&2", 8)));
        assertThat(both.weir().dropped()).containsExactly(0, 0, 0);
        assertThat(both.differences()).isEmpty();
    }

    @Test
    void joinsARecordAfterWithNoBeforeWhereKafkaStreamsStoreNoLongerShowsIt() {
        // before 0, after 5: the right record at 10 joins the left ones at [5, 10]
        Both both = run(Kind.INNER, 0, 5, 0, in(L, "k", 5), in(L, "j", 10), in(R, "k", 10));

        assertThat(both.kafka().outputs()).containsExactly(List.of(), List.of(), List.of());
        assertThat(both.weir().outputs()).containsExactly(List.of(), List.of(), List.of(out("k", "0&2", 10)));
        assertThat(both.differences()).isEmpty();
    }

    @Test
    void aRecordAtExactlyTheGraceBoundIsNotLateAndOneBelowIsAsForKafkaStreamsStore() {
        // W = 20, grace 3: 17 is not late, 16 is
        Both both = run(Kind.INNER, 2, 2, 3, in(L, "k", 16), in(L, "j", 20), in(R, "k", 17), in(R, "k", 16));

        assertThat(both.weir().outputs())
                .containsExactly(List.of(), List.of(), List.of(out("k", "0&2", 17)), List.of());
        assertThat(both.weir().dropped()).containsExactly(0, 0, 0, 1);
        assertThat(both.kafka().outputs().get(2))
                .isEqualTo(both.weir().outputs().get(2));
        assertThat(both.differences()).isEmpty();
    }

    // ---- 5. records without a key or value ----------------------------------------------------

    @Test
    void anOuterSideRecordWithoutAValueIsEmittedUnmatchedWhereKafkaStreamsDropsIt() {
        Both both = run(Kind.LEFT, 5, 5, 0, withoutValue(L, "k", 1), in(R, "k", 1));

        assertThat(both.kafka().outputs()).containsExactly(List.of(), List.of());
        assertThat(both.kafka().dropped()).containsExactly(1, 0);
        assertThat(both.weir().outputs()).containsExactly(List.of(out("k", "null&null", 1)), List.of());
        assertThat(both.weir().dropped()).containsExactly(0, 0);
        assertThat(both.differences()).isEmpty();
    }

    @Test
    void anOuterSideRecordWithoutAKeyIsEmittedUnmatchedAtOnceAsKafkaStreamsDoes() {
        Both both = run(Kind.OUTER, 5, 5, 0, in(L, null, 1), in(R, null, 2));

        assertThat(both.weir().outputs())
                .containsExactly(List.of(out(null, "0&null", 1)), List.of(out(null, "null&1", 2)));
        assertThat(both.kafka().outputs()).isEqualTo(both.weir().outputs());
        assertThat(both.kafka().dropped()).containsExactly(0, 0);
        assertThat(both.differences()).isEmpty();
    }

    @Test
    void anInnerSideDropsRecordsWithoutAKeyOrValueAsKafkaStreamsDoesWithoutReportingThemLate() {
        Both both = run(Kind.LEFT, 5, 5, 0, in(L, "k", 1), in(R, null, 1), withoutValue(R, "k", 1));

        assertThat(both.weir().outputs()).containsExactly(List.of(), List.of(), List.of());
        assertThat(both.kafka().outputs()).isEqualTo(both.weir().outputs());
        assertThat(both.kafka().dropped()).containsExactly(0, 1, 1);
        assertThat(both.weir().dropped()).containsExactly(0, 0, 0);
        assertThat(both.differences()).isEmpty();
    }

    // ---- 6. the watermark with the default idle timeout ---------------------------------------

    @Test
    void withTheDefaultIdleTimeoutRecordsOfOneSideAloneDoNotMoveTheWatermarkWhereKafkaStreamsStreamTimeFollowsThem() {
        StreamJoinOracleStream stream = StreamJoinOracleStream.of(
                Kind.LEFT, 5, 5, 0, in(L, "k", 0), in(L, "j", 100), in(R, "i", 50), in(R, "i", 100));
        StreamJoinResults kafka = StreamJoinKafkaStreamsOracle.run(stream);

        assertThat(kafka.outputs()).containsExactly(List.of(), List.of(out("k", "0&null", 0)), List.of(), List.of());
        try (TestDriver driver = TestDriver.builder(StreamJoinWeirSide.topology(stream))
                .config("max.out.of.orderness.ms", 0)
                .startWallClock(0)
                .inMemoryStores()
                .build()) {
            driver.pipe(L, "k", 0L, 0);
            driver.pipe(L, "j", 1L, 100);
            assertThat(joined(driver)).isEmpty(); // the right input, without records, holds it back
            driver.pipe(R, "i", 2L, 50); // the smallest of the two: 50
            assertThat(joined(driver)).containsExactly(out("k", "0&null", 0));
            driver.pipe(R, "i", 3L, 100); // 100
            assertThat(joined(driver)).isEmpty();
        }
    }

    private static List<Output> joined(TestDriver driver) {
        return driver.output(StreamJoinOracleStream.OUT, Serdes.strings(), Serdes.strings()).stream()
                .map((TestRecord<String, String> r) -> out(r.key(), r.value(), r.timestamp()))
                .toList();
    }
}
