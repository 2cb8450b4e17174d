package io.weir.internal.dsl.oracle;

import static org.assertj.core.api.Assertions.assertThat;

import io.weir.internal.dsl.oracle.JoinOracleStream.Input;
import io.weir.internal.dsl.oracle.JoinOracleStream.Kind;
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
 * Kafka Streams as the oracle of Weir's tables and joins: 200 seeded
 * (50 in the default build, all 200 under {@code -Pfull}) random
 * inputs per {@link Kind} (stream-table inner and left joins, table-table inner, left and outer
 * joins, a re-keyed count and a re-keyed sum behind a table filter and mapValues;
 * {@link JoinOracleStream}), interleaved over the input topics with out-of-order times,
 * tombstones, records without a key or value, piped the same into Weir's {@code TestDriver} (a
 * commit per record) and Kafka Streams' {@code TopologyTestDriver} (record cache disabled). Every
 * record must cause the same results, in the same order, with the same timestamps, once the
 * deliberate differences are applied to Kafka Streams' ({@link JoinOracleComparison} lists what is
 * compared; {@link JoinBoundariesTest} has a test for each difference).
 *
 * <p>A failure names the kind and seed ({@code JoinOracleStream.generate(kind, seed)} reproduces
 * it) and prints the input and, per record, both sides' results.
 */
class JoinOracleTest {

    static final int INPUTS_PER_KIND = TestSizes.pick(50, 200);

    /** How many of the inputs also run with the other stores (below). */
    static final int STORE_CHECKS_PER_KIND = 10;

    /** How often each case below must occur among a kind's inputs for the oracle to say something about it. */
    static final int MIN_CASES = INPUTS_PER_KIND / 10;

    static Stream<Arguments> inputs() {
        return seeds(INPUTS_PER_KIND);
    }

    static Stream<Arguments> fewerInputs() {
        return seeds(STORE_CHECKS_PER_KIND);
    }

    private static Stream<Arguments> seeds(int perKind) {
        return OracleSeeds.seeds(perKind, Kind.values());
    }

    @ParameterizedTest(name = "{0} seed {1}")
    @MethodSource("inputs")
    void givesKafkaStreamsResults(Kind kind, long seed) {
        JoinOracleStream stream = JoinOracleStream.generate(kind, seed);
        JoinResults kafka = JoinKafkaStreamsOracle.run(stream);
        JoinResults weir = JoinWeirSide.run(stream, true);

        List<String> differences = JoinOracleComparison.differences(stream, kafka, weir);

        assertThat(differences)
                .as("%s%s", stream, JoinOracleComparison.describe(stream, kafka, weir))
                .isEmpty();
    }

    /** The oracle runs Weir with in-memory stores, which are faster: RocksDB ones must not change anything. */
    @ParameterizedTest(name = "{0} seed {1}")
    @MethodSource("fewerInputs")
    void givesTheSameResultsWithRocksDbStores(Kind kind, long seed) {
        JoinOracleStream stream = JoinOracleStream.generate(kind, seed);
        assertThat(JoinWeirSide.run(stream, false)).as("%s", stream).isEqualTo(JoinWeirSide.run(stream, true));
    }

    /** The oracle runs Kafka Streams with its in-memory stores; they must give what its default RocksDB ones give. */
    @ParameterizedTest(name = "{0} seed {1}")
    @MethodSource("fewerInputs")
    void kafkaStreamsInMemoryStoresAreAFaithfulOracle(Kind kind, long seed) {
        JoinOracleStream stream = JoinOracleStream.generate(kind, seed);
        assertThat(JoinKafkaStreamsOracle.run(stream, false))
                .as("%s", stream)
                .isEqualTo(JoinKafkaStreamsOracle.run(stream, true));
    }

    /**
     * The inputs of each kind reach the cases where tables and joins are easy to get wrong, each at
     * least {@link #MIN_CASES} times (counted from the inputs alone, without running them).
     */
    @ParameterizedTest
    @EnumSource(Kind.class)
    void theRandomInputsReachEveryCase(Kind kind) {
        Map<String, Integer> cases = new HashMap<>();
        for (long seed = 0; seed < INPUTS_PER_KIND; seed++) {
            countCases(JoinOracleStream.generate(kind, seed), cases);
        }
        List<String> expected = new ArrayList<>(List.of(
                "out of order",
                "tombstone of a row",
                "tombstone of an absent row",
                "row rewritten with its value",
                "table record without a key"));
        if (kind.streamTable()) {
            expected.addAll(List.of(
                    "stream record without a value",
                    "stream record without a key",
                    "stream record without a table row",
                    "stream record with a table row"));
        }
        if (kind.tableTable()) {
            expected.add("change of a key both sides have");
        }
        if (kind == Kind.TABLE_LEFT || kind == Kind.STREAM_TABLE_LEFT) {
            expected.addAll(List.of("derived row the filter drops, then keeps", "derived row the filter drops twice"));
        }
        if (kind == Kind.STREAM_TABLE_LEFT) {
            expected.add("stream record whose table row the filter drops");
        }
        if (kind.grouped()) {
            expected.add("row moving to another group");
        }
        if (kind == Kind.GROUP_SUM) {
            expected.add("row the filter drops, then keeps");
        }
        for (String c : expected) {
            assertThat(cases.getOrDefault(c, 0))
                    .as("%s: %s (all: %s)", kind, c, cases)
                    .isGreaterThanOrEqualTo(MIN_CASES);
        }
    }

    private static void countCases(JoinOracleStream stream, Map<String, Integer> cases) {
        Map<String, Map<String, Long>> rows = new HashMap<>();
        long max = Long.MIN_VALUE;
        for (Input in : stream.inputs()) {
            List<String> found = new ArrayList<>();
            if (in.timestamp() < max) {
                found.add("out of order");
            }
            max = Math.max(max, in.timestamp());
            if (!stream.kind().isTable(in.topic())) {
                Long row = in.key() == null
                        ? null
                        : rows.getOrDefault(JoinOracleStream.TABLE, Map.of()).get(in.key());
                found.add(
                        in.value() == null
                                ? "stream record without a value"
                                : in.key() == null
                                        ? "stream record without a key"
                                        : row == null
                                                ? "stream record without a table row"
                                                : "stream record with a table row");
                if (in.key() != null && row != null && !JoinOracleStream.derivedKept(row)) {
                    found.add("stream record whose table row the filter drops");
                }
            } else if (in.key() == null) {
                found.add("table record without a key");
            } else {
                Map<String, Long> table = rows.computeIfAbsent(in.topic(), t -> new HashMap<>());
                Long old = table.get(in.key());
                if (in.value() == null) {
                    found.add(old == null ? "tombstone of an absent row" : "tombstone of a row");
                } else if (in.value().equals(old)) {
                    found.add("row rewritten with its value");
                }
                if (old != null && in.value() != null) {
                    if (!JoinOracleStream.group(old).equals(JoinOracleStream.group(in.value()))) {
                        found.add("row moving to another group");
                    }
                    if (!JoinOracleStream.kept(old) && JoinOracleStream.kept(in.value())) {
                        found.add("row the filter drops, then keeps");
                    }
                    boolean derived = in.topic().equals(JoinOracleStream.RIGHT) && stream.kind() == Kind.TABLE_LEFT
                            || stream.kind() == Kind.STREAM_TABLE_LEFT;
                    if (derived && !JoinOracleStream.derivedKept(old)) {
                        found.add(
                                JoinOracleStream.derivedKept(in.value())
                                        ? "derived row the filter drops, then keeps"
                                        : "derived row the filter drops twice");
                    }
                }
                String other =
                        in.topic().equals(JoinOracleStream.LEFT) ? JoinOracleStream.RIGHT : JoinOracleStream.LEFT;
                if (stream.kind().tableTable()
                        && rows.getOrDefault(other, Map.of()).get(in.key()) != null
                        && (old != null || in.value() != null)) {
                    found.add("change of a key both sides have");
                }
                if (in.value() == null) {
                    table.remove(in.key());
                } else {
                    table.put(in.key(), in.value());
                }
            }
            found.forEach(c -> cases.merge(c, 1, Integer::sum));
        }
    }
}
