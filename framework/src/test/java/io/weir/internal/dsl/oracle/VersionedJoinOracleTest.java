package io.weir.internal.dsl.oracle;

import static org.assertj.core.api.Assertions.assertThat;

import io.weir.TopologyBuilder;
import io.weir.dsl.Joined;
import io.weir.dsl.RecordStream;
import io.weir.dsl.RecordTable;
import io.weir.dsl.Versioned;
import io.weir.testdriver.TestDriver;
import io.weir.testdriver.TestRecord;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Random;
import java.util.stream.LongStream;
import java.util.stream.Stream;
import org.apache.kafka.common.serialization.LongSerializer;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.apache.kafka.streams.StreamsBuilder;
import org.apache.kafka.streams.TestInputTopic;
import org.apache.kafka.streams.TestOutputTopic;
import org.apache.kafka.streams.TopologyTestDriver;
import org.apache.kafka.streams.kstream.Consumed;
import org.apache.kafka.streams.kstream.KStream;
import org.apache.kafka.streams.kstream.KTable;
import org.apache.kafka.streams.kstream.Materialized;
import org.apache.kafka.streams.kstream.Produced;
import org.apache.kafka.streams.state.Stores;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Kafka Streams 4.4 as the oracle of Weir's as-of stream-table joins: {@value #INPUTS_PER_KIND}
 * seeded random inputs per {@link Kind}, a versioned table ({@code Stores.persistentVersionedKeyValueStore}
 * against {@code Versioned.history}) and a stream interleaved with out-of-order times (beyond the
 * history retention too) and tombstones, piped the same into both drivers.
 *
 * <ul>
 *   <li>Without a grace period ({@code INNER}, {@code LEFT}): every record must give the same
 *       results, in the same order, with the same timestamps, including the stream records older
 *       than the table's history (inner: nothing; left: {@code null}) and the table updates older
 *       than it (dropped by both).</li>
 *   <li>With a grace period ({@code GRACE_INNER}, {@code GRACE_LEFT}): Kafka Streams waits for the
 *       stream side's own stream time, Weir for the watermark (here the largest time over both
 *       inputs), so results come out at different records; the inputs keep table updates within the
 *       grace behind the largest time seen (stream records are out of order by up to 8 graces), a
 *       last stream record flushes both buffers, and the results must be the same as multisets.
 *       The history retention is long here: a lookup happens at different moments in the two, and
 *       how far the table's newest time has moved by then is what differs.</li>
 * </ul>
 * Inputs run {@value #INPUTS_PER_RUN} at a time through one pair of drivers ({@link #together}).
 * Keys and stream values are never {@code null} here: those cases are the same with a versioned table
 * as without one ({@code JoinOracleTest}), and Kafka Streams' grace buffer fails on a {@code null} key
 * in a left join.
 */
class VersionedJoinOracleTest {

    static final int INPUTS_PER_KIND = 200;
    /**
     * Inputs run one after the other through one driver of each, which is what costs (Kafka
     * Streams' versioned store is RocksDB only): each input's keys are its own and its times start
     * far after the previous input's, so nothing of one reaches the next.
     */
    static final int INPUTS_PER_RUN = 20;

    static final long TIME_APART = 1_000_000_000L;
    static final String TABLE = "prices";
    static final String STREAM = "orders";
    static final String OUT = "priced";

    enum Kind {
        INNER(false, false),
        LEFT(true, false),
        GRACE_INNER(false, true),
        GRACE_LEFT(true, true);

        final boolean left;
        final boolean grace;

        Kind(boolean left, boolean grace) {
            this.left = left;
            this.grace = grace;
        }
    }

    record Input(String topic, String key, Long value, long timestamp) {
        @Override
        public String toString() {
            return topic + " " + key + "=" + value + "@" + timestamp;
        }
    }

    record Case(Kind kind, long seed, long retentionMs, long graceMs, List<Input> inputs) {
        @Override
        public String toString() {
            return kind + " seed " + seed + " retention " + retentionMs + " grace " + graceMs + "\n" + inputs;
        }
    }

    /** The input {@code seed} of a kind; the retention and grace go by the run ({@code seed / INPUTS_PER_RUN}). */
    static Case generate(Kind kind, long seed) {
        Random random = new Random(seed * 31 + kind.ordinal());
        int run = (int) (seed / INPUTS_PER_RUN);
        long retention = kind.grace ? 1_000_000 : List.of(15L, 40L, 100L).get(run % 3);
        long grace = kind.grace ? List.of(1L, 10L, 30L).get(run % 3) : 0;
        List<Input> inputs = new ArrayList<>();
        long max = 0;
        int n = 25 + random.nextInt(15);
        for (int i = 0; i < n; i++) {
            max += random.nextInt(8);
            String key = "k" + random.nextInt(3);
            boolean table = random.nextInt(100) < 45;
            long back;
            if (table) {
                back = kind.grace ? random.nextInt((int) grace) : random.nextInt(100) < 70 ? 0 : random.nextInt(60);
            } else {
                back = random.nextInt(100) < 60 ? 0 : random.nextInt((int) Math.max(60, 8 * grace));
            }
            long ts = Math.max(0, max - back);
            Long value = table && random.nextInt(100) < 15 ? null : (long) random.nextInt(10);
            inputs.add(new Input(table ? TABLE : STREAM, key, value, ts));
        }
        if (kind.grace) {
            inputs.add(new Input(STREAM, "flush", 0L, max + grace + 1));
        }
        return new Case(kind, seed, retention, grace, inputs);
    }

    static Stream<Arguments> runs() {
        return Stream.of(Kind.values())
                .flatMap(kind ->
                        LongStream.range(0, INPUTS_PER_KIND / INPUTS_PER_RUN).mapToObj(run -> Arguments.of(kind, run)));
    }

    static String joined(Long order, Long price) {
        return order + "@" + price;
    }

    /** Seeds {@code run * INPUTS_PER_RUN} to the next run's, each input compared on its own. */
    @ParameterizedTest(name = "{0} run {1}")
    @MethodSource("runs")
    void givesKafkaStreamsResults(Kind kind, long run) {
        List<Case> cases = LongStream.range(run * INPUTS_PER_RUN, (run + 1) * INPUTS_PER_RUN)
                .mapToObj(seed -> generate(kind, seed))
                .toList();
        Case together = together(cases);
        List<List<String>> kafka = kafkaStreams(together);
        List<List<String>> weir = weir(together);
        int from = 0;
        for (Case c : cases) {
            int to = from + c.inputs().size();
            compare(c, kafka.subList(from, to), weir.subList(from, to));
            from = to;
        }
    }

    /** The inputs one after the other, each with keys of its own, {@link #TIME_APART} apart. */
    static Case together(List<Case> cases) {
        List<Input> all = new ArrayList<>();
        for (int i = 0; i < cases.size(); i++) {
            for (Input in : cases.get(i).inputs()) {
                all.add(new Input(in.topic(), "s" + i + "/" + in.key(), in.value(), in.timestamp() + i * TIME_APART));
            }
        }
        Case first = cases.get(0);
        return new Case(first.kind(), first.seed(), first.retentionMs(), first.graceMs(), all);
    }

    private static void compare(Case c, List<List<String>> kafka, List<List<String>> weir) {
        Kind kind = c.kind();
        if (!kind.grace) {
            assertThat(weir).as("%s", c).isEqualTo(kafka);
            return;
        }
        List<String> k = kafka.stream().flatMap(List::stream).sorted().toList();
        List<String> w = weir.stream().flatMap(List::stream).sorted().toList();
        assertThat(w)
                .as("%s\nper record, Kafka Streams %s\nWeir %s", c, kafka, weir)
                .isEqualTo(k);
    }

    /** The inputs reach the cases where as-of joins are easy to get wrong, each at least 20 times per kind. */
    @ParameterizedTest
    @EnumSource(Kind.class)
    void theRandomInputsReachEveryCase(Kind kind) {
        Map<String, Integer> cases = new HashMap<>();
        for (long seed = 0; seed < INPUTS_PER_KIND; seed++) {
            Case c = generate(kind, seed);
            Map<String, Long> newest = new HashMap<>();
            long tableMax = Long.MIN_VALUE;
            for (Input in : c.inputs()) {
                if (in.topic().equals(TABLE)) {
                    if (in.timestamp() < newest.getOrDefault(in.key(), Long.MIN_VALUE)) {
                        cases.merge("out-of-order table update", 1, Integer::sum);
                    }
                    if (in.value() == null) {
                        cases.merge("tombstone", 1, Integer::sum);
                    }
                    if (in.timestamp() < tableMax - c.retentionMs()) {
                        cases.merge("table update older than the history", 1, Integer::sum);
                    }
                    newest.merge(in.key(), in.timestamp(), Math::max);
                    tableMax = Math.max(tableMax, in.timestamp());
                } else {
                    if (in.timestamp() < newest.getOrDefault(in.key(), Long.MIN_VALUE)) {
                        cases.merge("stream record older than its key's newest version", 1, Integer::sum);
                    }
                    if (in.timestamp() < tableMax - c.retentionMs()) {
                        cases.merge("stream record older than the history", 1, Integer::sum);
                    }
                }
            }
        }
        List<String> expected = new ArrayList<>(
                List.of("out-of-order table update", "tombstone", "stream record older than its key's newest version"));
        if (!kind.grace) {
            expected.addAll(List.of("table update older than the history", "stream record older than the history"));
        }
        for (String e : expected) {
            assertThat(cases.getOrDefault(e, 0))
                    .as("%s: %s (all: %s)", kind, e, cases)
                    .isGreaterThanOrEqualTo(20);
        }
    }

    /** Per input, the results it caused, as {@code key|value|timestamp}. */
    static List<List<String>> weir(Case c) {
        TopologyBuilder b = new TopologyBuilder();
        RecordTable<String, Long> table = b.table(
                io.weir.serde.Serdes.strings(),
                io.weir.serde.Serdes.longs(),
                TABLE,
                TABLE,
                Versioned.history(Duration.ofMillis(c.retentionMs())));
        RecordStream<String, Long> stream =
                b.stream(io.weir.serde.Serdes.strings(), io.weir.serde.Serdes.longs(), STREAM);
        Joined grace = Joined.grace(Duration.ofMillis(c.graceMs()), "order-prices");
        RecordStream<String, String> out = switch (c.kind()) {
            case INNER -> stream.join(table, VersionedJoinOracleTest::joined);
            case LEFT -> stream.leftJoin(table, VersionedJoinOracleTest::joined);
            case GRACE_INNER -> stream.join(table, VersionedJoinOracleTest::joined, grace);
            case GRACE_LEFT -> stream.leftJoin(table, VersionedJoinOracleTest::joined, grace);
        };
        out.to(OUT, io.weir.serde.Serdes.strings(), io.weir.serde.Serdes.strings());
        List<List<String>> results = new ArrayList<>();
        try (TestDriver driver = TestDriver.builder(b.build())
                .config("max.out.of.orderness.ms", 0)
                .config("idle.timeout.ms", 0)
                .startWallClock(0)
                .inMemoryStores()
                .build()) {
            for (Input in : c.inputs()) {
                driver.pipe(in.topic(), in.key(), in.value(), in.timestamp());
                results.add(driver.output(OUT, io.weir.serde.Serdes.strings(), io.weir.serde.Serdes.strings()).stream()
                        .map(VersionedJoinOracleTest::text)
                        .toList());
            }
        }
        return results;
    }

    private static String text(TestRecord<String, String> r) {
        return r.key() + "|" + r.value() + "|" + r.timestamp();
    }

    static List<List<String>> kafkaStreams(Case c) {
        Path stateDir = KafkaStreamsOracle.createStateDir();
        Properties props = KafkaStreamsOracle.driverProperties("versioned-oracle", stateDir, false);
        StreamsBuilder builder = new StreamsBuilder();
        KTable<String, Long> table = builder.table(
                TABLE,
                Consumed.with(Serdes.String(), Serdes.Long()),
                Materialized.<String, Long>as(
                                Stores.persistentVersionedKeyValueStore(TABLE, Duration.ofMillis(c.retentionMs())))
                        .withKeySerde(Serdes.String())
                        .withValueSerde(Serdes.Long()));
        KStream<String, Long> stream = builder.stream(STREAM, Consumed.with(Serdes.String(), Serdes.Long()));
        org.apache.kafka.streams.kstream.Joined<String, Long, Long> joined =
                org.apache.kafka.streams.kstream.Joined.with(
                        Serdes.String(), Serdes.Long(), Serdes.Long(), "order-prices");
        if (c.kind().grace) {
            joined = joined.withGracePeriod(Duration.ofMillis(c.graceMs()));
        }
        KStream<String, String> out = c.kind().left
                ? stream.leftJoin(table, VersionedJoinOracleTest::joined, joined)
                : stream.join(table, VersionedJoinOracleTest::joined, joined);
        out.to(OUT, Produced.with(Serdes.String(), Serdes.String()));
        List<List<String>> results = new ArrayList<>();
        try (TopologyTestDriver driver = new TopologyTestDriver(builder.build(), props, Instant.EPOCH)) {
            TestInputTopic<String, Long> tableIn =
                    driver.createInputTopic(TABLE, new StringSerializer(), new LongSerializer());
            TestInputTopic<String, Long> streamIn =
                    driver.createInputTopic(STREAM, new StringSerializer(), new LongSerializer());
            TestOutputTopic<String, String> output =
                    driver.createOutputTopic(OUT, new StringDeserializer(), new StringDeserializer());
            for (Input in : c.inputs()) {
                (in.topic().equals(TABLE) ? tableIn : streamIn)
                        .pipeInput(in.key(), in.value(), Instant.ofEpochMilli(in.timestamp()));
                results.add(output.readRecordsToList().stream()
                        .map(r -> r.key() + "|" + r.value() + "|" + r.timestamp())
                        .toList());
            }
        } finally {
            KafkaStreamsOracle.deleteRecursively(stateDir);
        }
        return results;
    }
}
