package io.weir.internal.dsl.oracle;

import static org.assertj.core.api.Assertions.assertThat;

import io.weir.internal.dsl.oracle.JoinOracleStream.Input;
import io.weir.internal.dsl.oracle.JoinOracleStream.Kind;
import io.weir.internal.dsl.oracle.JoinResults.Output;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Where Weir's tables and joins deliberately differ from Kafka Streams' (record cache disabled,
 * plain key-value stores), and the boundaries where they agree on a behaviour that is easy to get
 * wrong, each on a minimal input run through both. The oracle ({@link JoinOracleTest}) compares
 * everything else, with these differences applied ({@link JoinOracleComparison#asWeirDiffers}).
 *
 * <p>The differences:
 * <ol>
 *   <li><b>A tombstone for a row a table does not have.</b> Kafka Streams' table forwards it as a
 *       change (from nothing to nothing), and a table-table join recomputes the key's result from
 *       unchanged rows: an inner join, or a left join deleted on its left side, writes a tombstone
 *       for a result that never existed; an outer join (or a left join whose right side is
 *       deleted again) writes its unchanged result again. Weir's table forwards nothing for it, as
 *       nothing changed, so the join writes nothing.</li>
 *   <li><b>A stream record with a {@code null} value in a left stream-table join.</b> Kafka
 *       Streams skips it (a {@code null} value is "no message"; the joiner's {@code null} means a
 *       missing side). Weir joins it, as its left join gives a result for every record
 *       ({@code RecordStream#leftJoin}): the joiner sees {@code null} and the table's value. In an
 *       inner join both skip it.</li>
 *   <li><b>Timestamps of table-table join results.</b> Weir stamps a result with the time of the
 *       change that caused it; Kafka Streams with the larger of that and the other side's row's
 *       time.</li>
 *   <li><b>Timestamps of re-keyed aggregates.</b> Weir stamps an aggregate with the time of the
 *       row change that caused it; Kafka Streams with the larger of that and the aggregate's
 *       previous time, so an aggregate's time never goes back.</li>
 *   <li><b>A table record without a key.</b> Kafka Streams skips it (with a warning); Weir writes
 *       it to the dead-letter topic. Neither has a result for it.</li>
 * </ol>
 */
class JoinBoundariesTest {

    private static final String L = JoinOracleStream.LEFT;
    private static final String R = JoinOracleStream.RIGHT;
    private static final String S = JoinOracleStream.STREAM;
    private static final String T = JoinOracleStream.TABLE;

    private static Input in(String topic, String key, Long value, long timestamp) {
        return new Input(topic, key, value, timestamp);
    }

    private static Output out(String key, String value, long timestamp) {
        return new Output(key, value, timestamp);
    }

    private record Both(JoinOracleStream stream, JoinResults kafka, JoinResults weir) {
        List<String> differences() {
            return JoinOracleComparison.differences(stream, kafka, weir);
        }
    }

    private static Both run(Kind kind, Input... inputs) {
        JoinOracleStream stream = JoinOracleStream.of(kind, inputs);
        return new Both(stream, JoinKafkaStreamsOracle.run(stream), JoinWeirSide.run(stream, true));
    }

    // ---- the differences ----------------------------------------------------------------------

    @Test
    void anInnerJoinWritesNothingForATombstoneOfAnAbsentRowWhereKafkaStreamsWritesATombstone() {
        Both both = run(Kind.TABLE_INNER, in(L, "k", 1L, 1), in(R, "k", null, 2));

        assertThat(both.kafka().outputs()).containsExactly(List.of(), List.of(out("k", null, 2)));
        assertThat(both.weir().outputs()).containsExactly(List.of(), List.of());
        assertThat(both.differences()).isEmpty();
    }

    @Test
    void aLeftJoinWritesNothingForATombstoneOfAnAbsentLeftRowWhereKafkaStreamsWritesATombstone() {
        Both both = run(Kind.TABLE_LEFT, in(R, "k", 1L, 1), in(L, "k", null, 2));

        assertThat(both.kafka().outputs()).containsExactly(List.of(), List.of(out("k", null, 2)));
        assertThat(both.weir().outputs()).containsExactly(List.of(), List.of());
        assertThat(both.differences()).isEmpty();
    }

    @Test
    void anOuterJoinWritesNothingForATombstoneOfAnAbsentRowWhereKafkaStreamsWritesTheSameResultAgain() {
        Both both = run(
                Kind.TABLE_OUTER,
                in(L, "k", 1L, 1),
                in(R, "k", null, 2),
                in(R, "k", 2L, 3),
                in(R, "k", null, 4),
                in(R, "k", null, 5));

        assertThat(both.kafka().outputs())
                .containsExactly(
                        List.of(out("k", "1&null", 1)),
                        List.of(out("k", "1&null", 2)),
                        List.of(out("k", "1&2", 3)),
                        List.of(out("k", "1&null", 4)),
                        List.of(out("k", "1&null", 5)));
        assertThat(both.weir().outputs())
                .containsExactly(
                        List.of(out("k", "1&null", 1)),
                        List.of(),
                        List.of(out("k", "1&2", 3)),
                        List.of(out("k", "1&null", 4)),
                        List.of());
        assertThat(both.differences()).isEmpty();
    }

    @Test
    void aLeftStreamTableJoinJoinsARecordWithoutAValueWhereKafkaStreamsSkipsIt() {
        // STREAM_TABLE_LEFT's table keeps values not divisible by 3, plus 100
        Both both = run(Kind.STREAM_TABLE_LEFT, in(T, "k", 1L, 1), in(S, "k", null, 2), in(S, "j", null, 3));

        assertThat(both.kafka().outputs()).containsExactly(List.of(), List.of(), List.of());
        assertThat(both.weir().outputs())
                .containsExactly(List.of(), List.of(out("k", "null&101", 2)), List.of(out("j", "null&null", 3)));
        assertThat(both.differences()).isEmpty();
    }

    @Test
    void stampsATableJoinResultWithTheTimeOfTheChangeWhereKafkaStreamsTakesTheLaterOfBothRows() {
        Both both = run(Kind.TABLE_INNER, in(L, "k", 1L, 5), in(R, "k", 2L, 3), in(R, "k", null, 4));

        assertThat(both.kafka().outputs())
                .containsExactly(List.of(), List.of(out("k", "1&2", 5)), List.of(out("k", null, 5)));
        assertThat(both.weir().outputs())
                .containsExactly(List.of(), List.of(out("k", "1&2", 3)), List.of(out("k", null, 4)));
        assertThat(both.differences()).isEmpty();
    }

    @Test
    void stampsAReKeyedAggregateWithTheTimeOfTheRowChangeWhereKafkaStreamsKeepsTheLatest() {
        // 0 and 3 are both in group g0
        Both both = run(Kind.GROUP_COUNT, in(T, "a", 0L, 5), in(T, "b", 3L, 2), in(T, "b", null, 3));

        assertThat(both.kafka().outputs())
                .containsExactly(List.of(out("g0", "1", 5)), List.of(out("g0", "2", 5)), List.of(out("g0", "1", 5)));
        assertThat(both.weir().outputs())
                .containsExactly(List.of(out("g0", "1", 5)), List.of(out("g0", "2", 2)), List.of(out("g0", "1", 3)));
        assertThat(both.differences()).isEmpty();
    }

    @Test
    void deadLettersATableRecordWithoutAKeyWhereKafkaStreamsSkipsIt() {
        Both both = run(Kind.TABLE_INNER, in(L, null, 1L, 1), in(L, "k", 2L, 2), in(R, "k", 3L, 3));

        assertThat(both.kafka().outputs()).containsExactly(List.of(), List.of(), List.of(out("k", "2&3", 3)));
        assertThat(both.weir().outputs()).isEqualTo(both.kafka().outputs());
        assertThat(both.weir().deadLettered()).containsExactly(0);
        assertThat(both.differences()).isEmpty();
    }

    // ---- where they agree ---------------------------------------------------------------------

    @Test
    void anInnerStreamTableJoinSkipsRecordsWithoutAKeyOrValueAsKafkaStreamsDoes() {
        Both both = run(
                Kind.STREAM_TABLE_INNER,
                in(T, "k", 1L, 1),
                in(S, null, 2L, 2),
                in(S, "k", null, 3),
                in(S, "j", 4L, 4),
                in(S, "k", 5L, 5));

        assertThat(both.weir().outputs())
                .containsExactly(List.of(), List.of(), List.of(), List.of(), List.of(out("k", "5&1", 5)));
        assertThat(both.differences()).isEmpty();
    }

    @Test
    void aLeftStreamTableJoinJoinsARecordWithoutAKeyWithNoTableValueAsKafkaStreamsDoes() {
        Both both = run(Kind.STREAM_TABLE_LEFT, in(T, "k", 1L, 1), in(S, null, 2L, 2), in(S, "k", 3L, 3));

        assertThat(both.weir().outputs())
                .containsExactly(List.of(), List.of(out(null, "2&null", 2)), List.of(out("k", "3&101", 3)));
        assertThat(both.differences()).isEmpty();
    }

    @Test
    void aLeftStreamTableJoinSeesNoRowWhereTheTablesFilterDropsItAsKafkaStreamsDoes() {
        // STREAM_TABLE_LEFT's table keeps values not divisible by 3, plus 100
        Both both =
                run(Kind.STREAM_TABLE_LEFT, in(T, "k", 1L, 1), in(S, "k", 5L, 2), in(T, "k", 3L, 3), in(S, "k", 6L, 4));

        assertThat(both.weir().outputs())
                .containsExactly(List.of(), List.of(out("k", "5&101", 2)), List.of(), List.of(out("k", "6&null", 4)));
        assertThat(both.differences()).isEmpty();
    }

    @Test
    void aStreamRecordJoinsTheTablesCurrentValueWhateverTheirTimesAsKafkaStreamsDoesWithoutVersionedStores() {
        // the table row at 9 is the current value for the stream record at 4: no versioned lookup
        Both both = run(Kind.STREAM_TABLE_INNER, in(T, "k", 1L, 1), in(T, "k", 2L, 9), in(S, "k", 3L, 4));

        assertThat(both.weir().outputs()).containsExactly(List.of(), List.of(), List.of(out("k", "3&2", 4)));
        assertThat(both.differences()).isEmpty();
    }

    @Test
    void aRowRewrittenWithItsValueWritesTheJoinResultAgainAsKafkaStreamsDoes() {
        Both both = run(Kind.TABLE_INNER, in(L, "k", 1L, 1), in(R, "k", 2L, 2), in(R, "k", 2L, 3));

        assertThat(both.weir().outputs())
                .containsExactly(List.of(), List.of(out("k", "1&2", 2)), List.of(out("k", "1&2", 3)));
        assertThat(both.differences()).isEmpty();
    }

    @Test
    void deletingARowDeletesTheInnerJoinResultAsKafkaStreamsDoes() {
        Both both =
                run(Kind.TABLE_INNER, in(L, "k", 1L, 1), in(R, "k", 2L, 2), in(L, "k", null, 3), in(R, "k", null, 4));

        assertThat(both.weir().outputs())
                .containsExactly(List.of(), List.of(out("k", "1&2", 2)), List.of(out("k", null, 3)), List.of());
        assertThat(both.differences()).isEmpty();
    }

    @Test
    void aRightRowTheFilterDropsLeavesTheLeftJoinResultWithoutItAndDroppingItAgainChangesNothing() {
        // TABLE_LEFT's right side keeps values not divisible by 3, plus 100
        Both both = run(
                Kind.TABLE_LEFT,
                in(L, "k", 1L, 1),
                in(R, "k", 2L, 2),
                in(R, "k", 3L, 3),
                in(R, "k", 6L, 4),
                in(R, "k", null, 5));

        assertThat(both.weir().outputs())
                .containsExactly(
                        List.of(out("k", "1&null", 1)),
                        List.of(out("k", "1&102", 2)),
                        List.of(out("k", "1&null", 3)),
                        List.of(),
                        List.of());
        assertThat(both.differences()).isEmpty();
    }

    @Test
    void aRowMovingGroupLeavesItsOldGroupFirstAndARewrittenRowIsOneUpdateAsInKafkaStreams() {
        Both both = run(Kind.GROUP_COUNT, in(T, "a", 0L, 1), in(T, "a", 1L, 2), in(T, "a", 1L, 3), in(T, "a", null, 4));

        assertThat(both.weir().outputs())
                .containsExactly(
                        List.of(out("g0", "1", 1)),
                        List.of(out("g0", "0", 2), out("g1", "1", 2)),
                        List.of(out("g1", "1", 3)),
                        List.of(out("g1", "0", 4)));
        assertThat(both.differences()).isEmpty();
    }

    @Test
    void aRowTheFilterDropsLeavesTheReKeyedSumAndComesBackWhenKeptAsInKafkaStreams() {
        // GROUP_SUM keeps values v with v % 4 != 3 and sums 10 * v per group of 10 * v
        Both both = run(Kind.GROUP_SUM, in(T, "a", 1L, 1), in(T, "a", 7L, 2), in(T, "a", 3L, 3), in(T, "a", 4L, 4));

        assertThat(both.weir().outputs())
                .containsExactly(
                        List.of(out("g1", "10", 1)),
                        List.of(out("g1", "0", 2)),
                        List.of(),
                        List.of(out("g1", "40", 4)));
        assertThat(both.differences()).isEmpty();
    }
}
