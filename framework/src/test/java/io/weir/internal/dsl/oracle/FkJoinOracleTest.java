package io.weir.internal.dsl.oracle;

import static org.assertj.core.api.Assertions.assertThat;

import io.weir.internal.dsl.oracle.FkJoinOracleStream.Kind;
import io.weir.internal.dsl.oracle.JoinOracleStream.Input;
import io.weir.internal.dsl.oracle.JoinResults.Output;
import io.weir.testkit.TestSizes;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Kafka Streams as the oracle of Weir's foreign-key joins: 200 seeded
 * (50 in the default build, all 200 under {@code -Pfull}) random
 * inputs per {@link Kind} (inner and left; {@link FkJoinOracleStream}), with updates, tombstones and
 * foreign-key changes on both tables interleaved, piped the same into Weir's {@code TestDriver}
 * (a commit per record, the two tables on topics of 3 and 2 partitions) and Kafka Streams'
 * {@code TopologyTestDriver} (record cache disabled). After every record, the two result stores
 * must hold the same rows, and the record must have caused the same results, once four deliberate
 * differences are applied: a result's timestamp is that of the change that produced it, where
 * Kafka Streams takes the larger of the two rows' (as in the other table-table joins, so
 * timestamps are not compared); a tombstone for a row a table does not have changes nothing, so
 * Weir forwards nothing, where Kafka Streams writes every subscriber's result again (as in the
 * other joins, {@code JoinBoundariesTest}); Kafka Streams writes a tombstone for a
 * key that had no result (a new left row without a right row, a left row without a result
 * deleted), where Weir writes nothing, as its other joins do; and a right change reaching several
 * left rows gives their results in another order (Kafka Streams' by left key, Weir's by the
 * partition of the left key), so only each key's results are compared in order
 * ({@code FkJoinTest#aNewLeftRowWithoutARightRowWritesNoTombstone} pins the first). Each side's
 * results must also describe its store (the last result of each key, a tombstone for none).
 *
 * <p>A failure names the kind and seed ({@code FkJoinOracleStream.generate(kind, seed)} reproduces
 * it) and prints the input and both sides' results.
 */
class FkJoinOracleTest {

    static final int INPUTS_PER_KIND = TestSizes.pick(50, 200);

    /** How often each case below must occur among a kind's inputs for the oracle to say something about it. */
    static final int MIN_CASES = INPUTS_PER_KIND / 10;

    static Stream<Arguments> inputs() {
        return OracleSeeds.seeds(INPUTS_PER_KIND, Kind.values());
    }

    @ParameterizedTest(name = "{0} seed {1}")
    @MethodSource("inputs")
    void givesKafkaStreamsResults(Kind kind, long seed) {
        FkJoinOracleStream stream = FkJoinOracleStream.generate(kind, seed);
        FkJoinResults kafka = FkJoinKafkaStreamsOracle.run(stream);
        FkJoinResults weir = FkJoinWeirSide.run(stream);

        assertThat(differences(stream, kafka, weir))
                .as("%s%nKafka Streams: %s%nWeir:          %s", stream, kafka.outputs(), weir.outputs())
                .isEmpty();
    }

    private static List<String> differences(FkJoinOracleStream stream, FkJoinResults kafka, FkJoinResults weir) {
        List<String> differences = new ArrayList<>();
        Map<String, Map<String, Long>> tables = new HashMap<>();
        for (int i = 0; i < stream.inputs().size(); i++) {
            Input input = stream.inputs().get(i);
            Map<String, Long> table = tables.computeIfAbsent(input.topic(), t -> new HashMap<>());
            boolean absentRowDeleted = input.value() == null && !table.containsKey(input.key());
            if (input.value() == null) {
                table.remove(input.key());
            } else {
                table.put(input.key(), input.value());
            }
            if (!kafka.stores().get(i).equals(weir.stores().get(i))) {
                differences.add("after " + stream.inputs().get(i) + " (#" + i
                        + ") the result stores differ: Kafka Streams "
                        + kafka.stores().get(i) + ", Weir " + weir.stores().get(i));
            }
            Map<String, String> before = i == 0 ? Map.of() : kafka.stores().get(i - 1);
            List<String> expected = byKey(kafka.outputs().get(i).stream()
                    .filter(o -> !absentRowDeleted && (o.value() != null || before.containsKey(o.key())))
                    .toList());
            if (!expected.equals(byKey(weir.outputs().get(i)))) {
                differences.add("#" + i + " " + stream.inputs().get(i) + " caused different results: Kafka Streams "
                        + kafka.outputs().get(i) + ", Weir " + weir.outputs().get(i));
            }
        }
        if (!weir.lastResults().equals(weir.finalStore())) {
            differences.add("Weir's results " + weir.lastResults() + " do not describe its store " + weir.finalStore());
        }
        if (!kafka.lastResults().equals(kafka.finalStore())) {
            differences.add("Kafka Streams' results " + kafka.lastResults() + " do not describe its store "
                    + kafka.finalStore());
        }
        return differences;
    }

    /** The results ordered by key, each key's in the order they came: the order of different keys is not compared. */
    private static List<String> byKey(List<Output> outputs) {
        return outputs.stream()
                .sorted(java.util.Comparator.comparing(Output::key))
                .map(Output::keyValue)
                .toList();
    }

    /**
     * The inputs of each kind reach the cases where foreign-key joins are easy to get wrong, each
     * at least {@link #MIN_CASES} times (counted from the inputs alone, without running them).
     */
    @ParameterizedTest
    @EnumSource(Kind.class)
    void theRandomInputsReachEveryCase(Kind kind) {
        Map<String, Integer> cases = new HashMap<>();
        for (long seed = 0; seed < INPUTS_PER_KIND; seed++) {
            countCases(FkJoinOracleStream.generate(kind, seed), cases);
        }
        for (String c : List.of(
                "left row moving to another foreign key",
                "left row moving to no foreign key",
                "left row changed under its foreign key",
                "tombstone of a left row",
                "tombstone of a right row",
                "tombstone of an absent row",
                "right change with several subscribers",
                "left row without a right row",
                "out of order")) {
            assertThat(cases.getOrDefault(c, 0))
                    .as("%s: %s (all: %s)", kind, c, cases)
                    .isGreaterThanOrEqualTo(MIN_CASES);
        }
    }

    private static void countCases(FkJoinOracleStream stream, Map<String, Integer> cases) {
        Map<String, Long> left = new HashMap<>();
        Map<String, Long> right = new HashMap<>();
        long max = Long.MIN_VALUE;
        for (Input in : stream.inputs()) {
            List<String> found = new ArrayList<>();
            if (in.timestamp() < max) {
                found.add("out of order");
            }
            max = Math.max(max, in.timestamp());
            boolean isLeft = in.topic().equals(JoinOracleStream.LEFT);
            Map<String, Long> table = isLeft ? left : right;
            Long old = table.get(in.key());
            if (in.value() == null) {
                found.add(
                        old == null
                                ? "tombstone of an absent row"
                                : isLeft ? "tombstone of a left row" : "tombstone of a right row");
            } else if (isLeft) {
                String fk = FkJoinOracleStream.foreignKey(in.value());
                if (old != null) {
                    String oldFk = FkJoinOracleStream.foreignKey(old);
                    found.add(
                            java.util.Objects.equals(oldFk, fk)
                                    ? "left row changed under its foreign key"
                                    : fk == null
                                            ? "left row moving to no foreign key"
                                            : "left row moving to another foreign key");
                }
                if (fk != null && !right.containsKey(fk)) {
                    found.add("left row without a right row");
                }
            } else if (left.values().stream()
                            .filter(v -> in.key().equals(FkJoinOracleStream.foreignKey(v)))
                            .count()
                    > 1) {
                found.add("right change with several subscribers");
            }
            if (in.value() == null) {
                table.remove(in.key());
            } else {
                table.put(in.key(), in.value());
            }
            found.forEach(c -> cases.merge(c, 1, Integer::sum));
        }
    }
}
