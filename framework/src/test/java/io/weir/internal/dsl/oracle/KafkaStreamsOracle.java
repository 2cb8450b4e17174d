package io.weir.internal.dsl.oracle;

import io.weir.internal.dsl.oracle.OracleStream.Input;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Properties;
import java.util.stream.Stream;
import org.apache.kafka.common.Metric;
import org.apache.kafka.common.serialization.LongDeserializer;
import org.apache.kafka.common.serialization.LongSerializer;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.StreamsBuilder;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.TestInputTopic;
import org.apache.kafka.streams.TestOutputTopic;
import org.apache.kafka.streams.TopologyTestDriver;
import org.apache.kafka.streams.kstream.Consumed;
import org.apache.kafka.streams.kstream.KGroupedStream;
import org.apache.kafka.streams.kstream.KStream;
import org.apache.kafka.streams.kstream.KTable;
import org.apache.kafka.streams.kstream.Produced;
import org.apache.kafka.streams.kstream.SessionWindows;
import org.apache.kafka.streams.kstream.Suppressed;
import org.apache.kafka.streams.kstream.TimeWindows;
import org.apache.kafka.streams.kstream.Windowed;
import org.apache.kafka.streams.state.BuiltInDslStoreSuppliers;
import org.apache.kafka.streams.test.TestRecord;
import org.slf4j.LoggerFactory;

/**
 * Runs an {@link OracleStream} through Kafka Streams' {@code TopologyTestDriver}: the same
 * windows with {@code grace} as grace period, {@code count()} and {@code reduce(Long::sum)}, each
 * {@code suppress(untilWindowCloses(unbounded()))}, record cache disabled. The input is one
 * partition, so stream time is the largest timestamp seen, as Weir's watermark with
 * {@code max.out.of.orderness.ms=0}.
 *
 * <p>The windowed results are written with the key {@code key|start|end} to keep the window
 * through a plain string serde. Records dropped as late are counted per input record from the
 * task's {@code dropped-records-total} metric, read after each record (the driver processes a
 * record fully before {@code pipeInput} returns).
 */
final class KafkaStreamsOracle {

    static {
        // Kafka Streams warns at every start (unnamed stores, temp state directory) and at every
        // late record: hundreds of lines per run that say nothing here. Only its own loggers.
        ((ch.qos.logback.classic.Logger) LoggerFactory.getLogger("org.apache.kafka.streams"))
                .setLevel(ch.qos.logback.classic.Level.ERROR);
    }

    private KafkaStreamsOracle() {}

    /**
     * Runs {@code stream} with the stores the oracle tests use: Kafka Streams' default RocksDB
     * session stores for sessions, and its in-memory window stores for time windows (they give the
     * same results as the RocksDB ones, checked by {@code WindowOracleTest}, and open ten times
     * faster). Not the in-memory session store: on the same streams it gives the same results but a
     * larger {@code dropped-records-total}, as it also counts the writes it skips for sessions past
     * its retention (in 86 of the 200 session streams), so that it would not tell which records
     * were late.
     *
     * <p>For sessions it also records what the session count did record by record, before
     * suppression ({@link Results#sessionUpdates}): for each input offset, the updates of its
     * session store that the record caused, in the order forwarded (a {@code null} value for a
     * session merged away, then the merged or new session with its count; nothing for a record
     * dropped as late). Applied in order, they give the sessions each key has before any record,
     * the closed ones included: Kafka Streams' store stops returning a closed session, but nothing
     * removes it from the updates.
     */
    static Results run(OracleStream stream) {
        boolean sessions = stream.kind() == OracleStream.WindowKind.SESSION;
        return execute(stream, !sessions, sessions);
    }

    /**
     * Runs {@code stream}; {@code inMemory} uses Kafka Streams' in-memory window and session stores
     * ({@code dsl.store.suppliers.class}) instead of its default RocksDB ones, which are much
     * slower to open.
     */
    static Results run(OracleStream stream, boolean inMemory) {
        return execute(stream, inMemory, false);
    }

    private static Results execute(OracleStream stream, boolean inMemory, boolean traced) {
        StreamsBuilder builder = new StreamsBuilder();
        KGroupedStream<String, Long> grouped = builder.stream("in", Consumed.with(Serdes.String(), Serdes.Long()))
                .groupByKey();
        KTable<Windowed<String>, Long> counts;
        KTable<Windowed<String>, Long> sums;
        if (stream.kind() == OracleStream.WindowKind.SESSION) {
            var windowed = grouped.windowedBy(SessionWindows.ofInactivityGapAndGrace(
                    Duration.ofMillis(stream.gap()), Duration.ofMillis(stream.grace())));
            counts = windowed.count();
            sums = windowed.reduce(Long::sum);
        } else {
            var windowed = grouped.windowedBy(
                    TimeWindows.ofSizeAndGrace(Duration.ofMillis(stream.size()), Duration.ofMillis(stream.grace()))
                            .advanceBy(Duration.ofMillis(stream.advance())));
            counts = windowed.count();
            sums = windowed.reduce(Long::sum);
        }
        writeFinal(counts, "counts");
        writeFinal(sums, "sums");
        if (traced) {
            write(counts.toStream(), "updates");
        }

        Path stateDir = createStateDir();
        try (TopologyTestDriver driver =
                new TopologyTestDriver(builder.build(), properties(stateDir, inMemory), Instant.EPOCH)) {
            TestInputTopic<String, Long> in =
                    driver.createInputTopic("in", new StringSerializer(), new LongSerializer());
            TestOutputTopic<String, Long> updatesTopic = traced ? output(driver, "updates") : null;
            Metric dropped = droppedRecords(driver);
            int[] droppedPerOffset = new int[stream.inputs().size()];
            List<List<Emitted>> updates = new ArrayList<>();
            double before = value(dropped);
            for (int offset = 0; offset < stream.inputs().size(); offset++) {
                Input input = stream.inputs().get(offset);
                in.pipeInput(input.key(), input.value(), input.timestamp());
                double after = value(dropped);
                droppedPerOffset[offset] = (int) Math.round(after - before);
                before = after;
                if (traced) {
                    updates.add(parse(updatesTopic.readRecordsToList()));
                }
            }
            return new Results(
                    parse(output(driver, "counts").readRecordsToList()),
                    parse(output(driver, "sums").readRecordsToList()),
                    droppedPerOffset,
                    List.of(),
                    updates);
        } finally {
            deleteRecursively(stateDir);
        }
    }

    /** A state directory of this run's own: the driver leaves its stores on disk, and other tests may run beside. */
    static Path createStateDir() {
        try {
            return Files.createTempDirectory("weir-oracle-kafka-streams");
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    static void deleteRecursively(Path dir) {
        try (Stream<Path> paths = Files.walk(dir)) {
            paths.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static Properties properties(Path stateDir, boolean inMemory) {
        Properties props = driverProperties("oracle", stateDir, inMemory);
        props.put(StreamsConfig.DEFAULT_KEY_SERDE_CLASS_CONFIG, Serdes.StringSerde.class);
        props.put(StreamsConfig.DEFAULT_VALUE_SERDE_CLASS_CONFIG, Serdes.LongSerde.class);
        return props;
    }

    /**
     * What every oracle's {@code TopologyTestDriver} runs with: the record cache disabled (so every
     * update is forwarded, as Weir forwards it), stores in {@code stateDir}, in memory or RocksDB.
     */
    static Properties driverProperties(String applicationId, Path stateDir, boolean inMemory) {
        Properties props = new Properties();
        props.put(StreamsConfig.APPLICATION_ID_CONFIG, applicationId);
        props.put(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, "oracle:9092");
        props.put(StreamsConfig.STATESTORE_CACHE_MAX_BYTES_CONFIG, 0);
        if (inMemory) {
            props.put(
                    StreamsConfig.DSL_STORE_SUPPLIERS_CLASS_CONFIG,
                    BuiltInDslStoreSuppliers.InMemoryDslStoreSuppliers.class);
        }
        props.put(StreamsConfig.STATE_DIR_CONFIG, stateDir.toString());
        return props;
    }

    private static void writeFinal(KTable<Windowed<String>, Long> table, String topic) {
        write(
                table.suppress(Suppressed.untilWindowCloses(Suppressed.BufferConfig.unbounded()))
                        .toStream(),
                topic);
    }

    private static void write(KStream<Windowed<String>, Long> results, String topic) {
        results.map((windowed, value) -> KeyValue.pair(
                        windowed.key() + "|" + windowed.window().start() + "|"
                                + windowed.window().end(),
                        value))
                .to(topic, Produced.with(Serdes.String(), Serdes.Long()));
    }

    private static TestOutputTopic<String, Long> output(TopologyTestDriver driver, String topic) {
        return driver.createOutputTopic(topic, new StringDeserializer(), new LongDeserializer());
    }

    /** Results written with the key {@code key|start|end}. */
    private static List<Emitted> parse(List<TestRecord<String, Long>> records) {
        List<Emitted> emitted = new ArrayList<>();
        for (var record : records) {
            String[] parts = record.key().split("\\|");
            emitted.add(new Emitted(
                    parts[0], Long.parseLong(parts[1]), Long.parseLong(parts[2]), record.value(), record.timestamp()));
        }
        return emitted;
    }

    /** The task's {@code dropped-records-total}: the driver runs one task. */
    static Metric droppedRecords(TopologyTestDriver driver) {
        return driver.metrics().entrySet().stream()
                .filter(e -> e.getKey().name().equals("dropped-records-total")
                        && e.getKey().group().equals("stream-task-metrics"))
                .map(java.util.Map.Entry::getValue)
                .reduce((a, b) -> {
                    throw new IllegalStateException("more than one task-level dropped-records-total metric");
                })
                .orElseThrow(() -> new IllegalStateException("no dropped-records-total metric"));
    }

    static double value(Metric metric) {
        return ((Number) metric.metricValue()).doubleValue();
    }
}
