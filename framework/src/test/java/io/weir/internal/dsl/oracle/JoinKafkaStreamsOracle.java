package io.weir.internal.dsl.oracle;

import io.weir.internal.dsl.oracle.JoinOracleStream.Input;
import io.weir.internal.dsl.oracle.JoinOracleStream.Kind;
import io.weir.internal.dsl.oracle.JoinResults.Output;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import org.apache.kafka.common.serialization.LongSerializer;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.StreamsBuilder;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.TestInputTopic;
import org.apache.kafka.streams.TestOutputTopic;
import org.apache.kafka.streams.TopologyConfig;
import org.apache.kafka.streams.TopologyTestDriver;
import org.apache.kafka.streams.kstream.Consumed;
import org.apache.kafka.streams.kstream.Grouped;
import org.apache.kafka.streams.kstream.KGroupedTable;
import org.apache.kafka.streams.kstream.KStream;
import org.apache.kafka.streams.kstream.KTable;
import org.apache.kafka.streams.kstream.Materialized;
import org.apache.kafka.streams.kstream.Produced;
import org.apache.kafka.streams.state.KeyValueStore;

/**
 * Runs a {@link JoinOracleStream} through Kafka Streams' {@code TopologyTestDriver}, the operation
 * of its {@link Kind} as {@link JoinWeirSide} builds it for Weir: tables from topics materialized,
 * table-table join results and aggregates materialized (as Weir always keeps them), plain
 * key-value stores (not versioned: a stream-table join then reads the table's current value and
 * never buffers), in memory by default ({@code dsl.store.suppliers.class}), record cache disabled
 * ({@code statestore.cache.max.bytes=0}) so that every update is forwarded. Results are written
 * with {@code toStream().to(out)}, values as text.
 *
 * <p>The driver processes a piped record fully before {@code pipeInput} returns, and every topic
 * has one partition, so reading the output topic after each record tells what that record caused.
 */
final class JoinKafkaStreamsOracle {

    private JoinKafkaStreamsOracle() {}

    /** Runs {@code stream} with in-memory stores, as the oracle does. */
    static JoinResults run(JoinOracleStream stream) {
        return run(stream, true);
    }

    /**
     * Runs {@code stream}; {@code inMemory} uses Kafka Streams' in-memory key-value stores
     * ({@code dsl.store.suppliers.class}) instead of its default RocksDB ones, which are slower to open.
     */
    static JoinResults run(JoinOracleStream stream, boolean inMemory) {
        Path stateDir = KafkaStreamsOracle.createStateDir(); // also quiets Kafka Streams' loggers
        Properties props = KafkaStreamsOracle.driverProperties("join-oracle", stateDir, inMemory);
        StreamsBuilder builder = new StreamsBuilder(new TopologyConfig(new StreamsConfig(props)));
        build(builder, stream.kind());
        try (TopologyTestDriver driver = new TopologyTestDriver(builder.build(), props, Instant.EPOCH)) {
            Map<String, TestInputTopic<String, Long>> topics = new HashMap<>();
            for (String topic : stream.kind().topics()) {
                topics.put(topic, driver.createInputTopic(topic, new StringSerializer(), new LongSerializer()));
            }
            TestOutputTopic<String, String> out =
                    driver.createOutputTopic(JoinOracleStream.OUT, new StringDeserializer(), new StringDeserializer());
            List<List<Output>> outputs = new ArrayList<>();
            for (Input input : stream.inputs()) {
                topics.get(input.topic()).pipeInput(input.key(), input.value(), input.timestamp());
                outputs.add(out.readRecordsToList().stream()
                        .map(r -> new Output(r.key(), r.value(), r.timestamp()))
                        .toList());
            }
            return new JoinResults(List.copyOf(outputs), List.of());
        } finally {
            KafkaStreamsOracle.deleteRecursively(stateDir);
        }
    }

    private static void build(StreamsBuilder builder, Kind kind) {
        Produced<String, String> produced = Produced.with(Serdes.String(), Serdes.String());
        switch (kind) {
            case STREAM_TABLE_INNER, STREAM_TABLE_LEFT -> {
                KStream<String, Long> stream = builder.stream(JoinOracleStream.STREAM, longs());
                KTable<String, Long> table = table(builder, JoinOracleStream.TABLE);
                (kind == Kind.STREAM_TABLE_INNER
                                ? stream.join(table, JoinOracleStream::joined)
                                : stream.leftJoin(
                                        table.filter((k, v) -> JoinOracleStream.derivedKept(v))
                                                .mapValues(JoinOracleStream::derived),
                                        JoinOracleStream::joined))
                        .to(JoinOracleStream.OUT, produced);
            }
            case TABLE_INNER, TABLE_LEFT, TABLE_OUTER -> {
                KTable<String, Long> left = table(builder, JoinOracleStream.LEFT);
                KTable<String, Long> right = table(builder, JoinOracleStream.RIGHT);
                Materialized<String, String, KeyValueStore<Bytes, byte[]>> joined =
                        Materialized.<String, String, KeyValueStore<Bytes, byte[]>>as("joined")
                                .withKeySerde(Serdes.String())
                                .withValueSerde(Serdes.String());
                KTable<String, String> result = switch (kind) {
                    case TABLE_INNER -> left.join(right, JoinOracleStream::joined, joined);
                    case TABLE_LEFT ->
                        left.leftJoin(
                                right.filter((k, v) -> JoinOracleStream.derivedKept(v))
                                        .mapValues(JoinOracleStream::derived),
                                JoinOracleStream::joined,
                                joined);
                    default -> left.outerJoin(right, JoinOracleStream::joined, joined);
                };
                result.toStream().to(JoinOracleStream.OUT, produced);
            }
            case GROUP_COUNT ->
                table(builder, JoinOracleStream.TABLE)
                        .groupBy(
                                (k, v) -> KeyValue.pair(JoinOracleStream.group(v), v),
                                Grouped.with(Serdes.String(), Serdes.Long()))
                        .count(Materialized.<String, Long, KeyValueStore<Bytes, byte[]>>as("aggregate")
                                .withKeySerde(Serdes.String())
                                .withValueSerde(Serdes.Long()))
                        .toStream()
                        .mapValues(JoinKafkaStreamsOracle::text)
                        .to(JoinOracleStream.OUT, produced);
            case GROUP_SUM -> {
                KGroupedTable<String, Long> grouped = table(builder, JoinOracleStream.TABLE)
                        .filter((k, v) -> JoinOracleStream.kept(v))
                        .mapValues(JoinOracleStream::scaled)
                        .groupBy(
                                (k, v) -> KeyValue.pair(JoinOracleStream.group(v), v),
                                Grouped.with(Serdes.String(), Serdes.Long()));
                grouped.aggregate(
                                () -> 0L,
                                (k, v, sum) -> sum + v,
                                (k, v, sum) -> sum - v,
                                Materialized.<String, Long, KeyValueStore<Bytes, byte[]>>as("aggregate")
                                        .withKeySerde(Serdes.String())
                                        .withValueSerde(Serdes.Long()))
                        .toStream()
                        .mapValues(JoinKafkaStreamsOracle::text)
                        .to(JoinOracleStream.OUT, produced);
            }
            default -> throw new IllegalArgumentException(kind.toString());
        }
    }

    /** A result as text; a tombstone stays {@code null}. */
    private static String text(Long value) {
        return value == null ? null : value.toString();
    }

    private static Consumed<String, Long> longs() {
        return Consumed.with(Serdes.String(), Serdes.Long());
    }

    /** A table from {@code topic}, kept in the store {@code <topic>-store} as Weir keeps it. */
    private static KTable<String, Long> table(StreamsBuilder builder, String topic) {
        return builder.table(
                topic,
                longs(),
                Materialized.<String, Long, KeyValueStore<Bytes, byte[]>>as(topic + "-store")
                        .withKeySerde(Serdes.String())
                        .withValueSerde(Serdes.Long()));
    }
}
