package io.weir.internal.dsl.oracle;

import static org.assertj.core.api.Assertions.assertThat;

import io.weir.internal.dsl.oracle.StreamJoinOracleStream.Input;
import io.weir.internal.dsl.oracle.StreamJoinOracleStream.Kind;
import io.weir.testkit.TestSizes;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Kafka Streams as the oracle of Weir's stream-stream joins: 200 seeded
 * (50 in the default build, all 200 under {@code -Pfull})
 * random inputs per join (inner, left, outer; {@link StreamJoinOracleStream}), with symmetric,
 * asymmetric and zero windows, records of both sides interleaved, out of order within and beyond
 * the grace, duplicates, records without a key or value, piped the same into Weir's
 * {@code TestDriver} ({@code max.out.of.orderness.ms=0}, {@code idle.timeout.ms=0}: the watermark is
 * the largest time seen) and Kafka Streams' {@code TopologyTestDriver} ({@code JoinWindows
 * .ofTimeDifferenceAndGrace}, no cache). Every record must cause the same results, in the same
 * order, with the same timestamps, and Weir must report exactly the late records, once the
 * deliberate differences are applied to Kafka Streams' results; what Kafka Streams did that they
 * do not explain fails the test too ({@link StreamJoinOracleComparison}; each difference has a test
 * in {@link StreamJoinBoundariesTest}).
 *
 * <p>A failure names the join and seed ({@code StreamJoinOracleStream.generate(kind, seed)}
 * reproduces it) and prints the input and, per record, both sides' results.
 */
class StreamJoinOracleTest {

    static final int INPUTS_PER_KIND = TestSizes.pick(50, 200);

    /** How many of the inputs also run with RocksDB stores, and with the join's task revoked and reassigned. */
    static final int CHECKS_PER_KIND = 10;

    /** How often each case below must occur among a kind's inputs for the oracle to say something about it. */
    static final int MIN_CASES = INPUTS_PER_KIND / 10;

    static Stream<Arguments> inputs() {
        return seeds(INPUTS_PER_KIND);
    }

    static Stream<Arguments> fewerInputs() {
        return seeds(CHECKS_PER_KIND);
    }

    private static Stream<Arguments> seeds(int perKind) {
        return OracleSeeds.seeds(perKind, Kind.values());
    }

    @ParameterizedTest(name = "{0} seed {1}")
    @MethodSource("inputs")
    void givesKafkaStreamsResultsAndReportsTheLateRecords(Kind kind, long seed) {
        StreamJoinOracleStream stream = StreamJoinOracleStream.generate(kind, seed);
        StreamJoinResults kafka = StreamJoinKafkaStreamsOracle.run(stream);
        StreamJoinResults weir = StreamJoinWeirSide.run(stream, true);

        List<String> differences = StreamJoinOracleComparison.differences(stream, kafka, weir);

        assertThat(differences)
                .as("%s%s", stream, StreamJoinOracleComparison.describe(stream, kafka, weir))
                .isEmpty();
    }

    /** The oracle runs Weir with in-memory stores, which are faster: RocksDB ones must not change anything. */
    @ParameterizedTest(name = "{0} seed {1}")
    @MethodSource("fewerInputs")
    void givesTheSameResultsWithRocksDbStores(Kind kind, long seed) {
        StreamJoinOracleStream stream = StreamJoinOracleStream.generate(kind, seed);
        assertThat(StreamJoinWeirSide.run(stream, false))
                .as("%s", stream)
                .isEqualTo(StreamJoinWeirSide.run(stream, true));
    }

    /**
     * The buffers, their matched flags and the unmatched results already emitted survive the task
     * being revoked and reassigned at three random inputs: restored from their changelogs and the
     * committed watermark, the join gives the same results, none twice, none skipped.
     */
    @ParameterizedTest(name = "{0} seed {1}")
    @MethodSource("fewerInputs")
    void givesTheSameResultsWhenItsTaskIsRevokedAndReassigned(Kind kind, long seed) {
        StreamJoinOracleStream stream = StreamJoinOracleStream.generate(kind, seed);
        Random random = new Random(seed);
        Set<Integer> revokeAfter = new HashSet<>();
        for (int i = 0; i < 3; i++) {
            revokeAfter.add(random.nextInt(stream.inputs().size()));
        }
        assertThat(StreamJoinWeirSide.run(stream, true, revokeAfter))
                .as("revoked after %s: %s", revokeAfter, stream)
                .isEqualTo(StreamJoinWeirSide.run(stream, true));
    }

    /**
     * The inputs of each kind reach the cases where stream-stream joins are easy to get wrong, each
     * at least {@link #MIN_CASES} times (counted from the inputs alone, without running them).
     */
    @ParameterizedTest
    @EnumSource(Kind.class)
    void theRandomInputsReachEveryCase(Kind kind) {
        Map<String, Integer> cases = new HashMap<>();
        for (long seed = 0; seed < INPUTS_PER_KIND; seed++) {
            countCases(StreamJoinOracleStream.generate(kind, seed), cases);
        }
        List<String> expected = new ArrayList<>(List.of(
                "symmetric window",
                "asymmetric window",
                "time difference 0",
                "no grace",
                "pair joined",
                "out of order within the grace",
                "record at exactly the grace bound",
                "late record",
                "late record with a record to join",
                "same key and time as the record before, same side",
                "same key and time as the record before, other side",
                "record without a key",
                "record without a value",
                "record within the grace behind its window"));
        if (kind != Kind.INNER) {
            expected.add("unmatched record due");
        }
        for (String c : expected) {
            assertThat(cases.getOrDefault(c, 0))
                    .as("%s: %s (all: %s)", kind, c, cases)
                    .isGreaterThanOrEqualTo(MIN_CASES);
        }
    }

    private static void countCases(StreamJoinOracleStream stream, Map<String, Integer> cases) {
        List<String> found = new ArrayList<>();
        found.add(
                stream.before() + stream.after() == 0
                        ? "time difference 0"
                        : stream.before() == stream.after() ? "symmetric window" : "asymmetric window");
        if (stream.grace() == 0) {
            found.add("no grace");
        }
        List<Input> inputs = stream.inputs();
        long[] joinedAt = new long[inputs.size()];
        for (int i = 0; i < inputs.size(); i++) {
            Input in = inputs.get(i);
            long w = stream.watermarkAt(i);
            if (in.key() == null) {
                found.add("record without a key");
            } else if (in.value() == null) {
                found.add("record without a value");
            }
            if (i > 0
                    && in.key() != null
                    && in.key().equals(inputs.get(i - 1).key())
                    && in.timestamp() == inputs.get(i - 1).timestamp()) {
                found.add(
                        in.topic().equals(inputs.get(i - 1).topic())
                                ? "same key and time as the record before, same side"
                                : "same key and time as the record before, other side");
            }
            if (!in.joinable()) {
                continue;
            }
            boolean partner = false;
            for (int y = 0; y < i; y++) {
                Input other = inputs.get(y);
                if (other.left() != in.left()
                        && other.joinable()
                        && other.key().equals(in.key())
                        && stream.inWindow(in.left() ? in : other, in.left() ? other : in)) {
                    partner = true;
                    if (!stream.late(i) && !stream.late(y)) {
                        found.add("pair joined");
                        joinedAt[i] = joinedAt[y] = 1;
                    }
                }
            }
            if (stream.late(i)) {
                found.add(partner ? "late record with a record to join" : "late record");
            } else if (in.timestamp() == w - stream.grace() && stream.grace() > 0) {
                found.add("record at exactly the grace bound");
            } else if (in.timestamp() < w) {
                found.add("out of order within the grace");
            }
            if (!stream.late(i) && in.timestamp() + stream.afterOf(in.topic()) < w) {
                found.add("record within the grace behind its window");
            }
        }
        for (int r = 0; r < inputs.size(); r++) {
            Input in = inputs.get(r);
            if (stream.kind().outer(in.topic())
                    && in.joinable()
                    && !stream.late(r)
                    && joinedAt[r] == 0
                    && stream.watermarkAt(inputs.size() - 1)
                            > in.timestamp() + stream.afterOf(in.topic()) + stream.grace()) {
                found.add("unmatched record due");
            }
        }
        found.forEach(c -> cases.merge(c, 1, Integer::sum));
    }
}
