package io.weir.internal.dsl.oracle;

import static org.assertj.core.api.Assertions.assertThat;

import io.weir.internal.dsl.oracle.OracleStream.WindowKind;
import io.weir.testkit.TestSizes;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Kafka Streams as the oracle of Weir's windows: 200 seeded
 * (50 in the default build, all 200 under {@code -Pfull}) random streams
 * per window kind (tumbling, hopping, sessions; {@link OracleStream}), with out-of-order records
 * within and beyond the allowed lateness, run through Weir's {@code TestDriver}
 * ({@code Emit.onWindowClose()}, {@code max.out.of.orderness.ms=0}, late records to the topic) and
 * Kafka Streams' {@code TopologyTestDriver} (grace = allowed lateness,
 * {@code suppress(untilWindowCloses)}, no cache), a count and a sum on each side. They must give
 * the same results and drop the same records as late ({@link OracleComparison} lists what is
 * compared). The deliberate differences, and the closing boundary of sessions, have their own
 * tests in {@link WindowBoundariesTest}.
 *
 * <p>A failure names the stream's kind and seed ({@code OracleStream.generate(kind, seed)}
 * reproduces it) and prints the input and both sides' outputs.
 */
class WindowOracleTest {

    static final int STREAMS_PER_KIND = TestSizes.pick(50, 200);

    /** How many of the streams also run with the other stores (below). */
    static final int STORE_CHECKS_PER_KIND = TestSizes.pick(10, 20);

    static Stream<Arguments> streams() {
        return seeds(STREAMS_PER_KIND);
    }

    static Stream<Arguments> fewerStreams() {
        return seeds(STORE_CHECKS_PER_KIND);
    }

    /**
     * The time-window kinds only: the oracle runs sessions on Kafka Streams' RocksDB store (its
     * in-memory session store is not faithful), so there is no in-memory session oracle to check;
     * sessions are compared with Kafka Streams in {@link #givesKafkaStreamsResultsAndReportsTheRecordsItDropsAsLate}.
     */
    static Stream<Arguments> fewerTimeWindowStreams() {
        return seeds(STORE_CHECKS_PER_KIND, Stream.of(WindowKind.values()).filter(kind -> kind != WindowKind.SESSION));
    }

    private static Stream<Arguments> seeds(int perKind) {
        return seeds(perKind, Stream.of(WindowKind.values()));
    }

    private static Stream<Arguments> seeds(int perKind, Stream<WindowKind> kinds) {
        return OracleSeeds.seeds(perKind, kinds);
    }

    @ParameterizedTest(name = "{0} seed {1}")
    @MethodSource("streams")
    void givesKafkaStreamsResultsAndReportsTheRecordsItDropsAsLate(WindowKind kind, long seed) {
        OracleStream stream = OracleStream.generate(kind, seed);
        Results kafka = KafkaStreamsOracle.run(stream);
        Results weir = WeirSide.run(stream, true);

        List<String> differences = OracleComparison.differences(stream, kafka, weir);

        assertThat(differences)
                .as("%s%n%s", stream, OracleComparison.describe(kafka, weir))
                .isEmpty();
    }

    /** The oracle runs Weir with in-memory stores, which are faster: RocksDB ones must not change anything. */
    @ParameterizedTest(name = "{0} seed {1}")
    @MethodSource("fewerStreams")
    void givesTheSameOutputsWithRocksDbStores(WindowKind kind, long seed) {
        OracleStream stream = OracleStream.generate(kind, seed);
        assertSameOutputs(stream, WeirSide.run(stream, true), WeirSide.run(stream, false));
    }

    /**
     * The oracle runs Kafka Streams' time windows with its in-memory stores, which open ten times
     * faster; they must give what its default RocksDB stores give. (Its in-memory session store
     * does not, see {@link KafkaStreamsOracle#run(OracleStream)}: sessions use RocksDB, so they are
     * not in this test's parameters.)
     */
    @ParameterizedTest(name = "{0} seed {1}")
    @MethodSource("fewerTimeWindowStreams")
    void kafkaStreamsInMemoryWindowStoresAreAFaithfulOracle(WindowKind kind, long seed) {
        OracleStream stream = OracleStream.generate(kind, seed);
        assertSameOutputs(stream, KafkaStreamsOracle.run(stream, true), KafkaStreamsOracle.run(stream, false));
    }

    private static void assertSameOutputs(OracleStream stream, Results a, Results b) {
        assertThat(a.counts()).as("counts of %s", stream).isEqualTo(b.counts());
        assertThat(a.sums()).as("sums of %s", stream).isEqualTo(b.sums());
        assertThat(Arrays.equals(a.droppedPerOffset(), b.droppedPerOffset()))
                .as("dropped of %s", stream)
                .isTrue();
        assertThat(a.late()).as("late records of %s", stream).isEqualTo(b.late());
    }
}
