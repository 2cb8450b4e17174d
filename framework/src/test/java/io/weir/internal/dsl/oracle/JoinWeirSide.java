package io.weir.internal.dsl.oracle;

import io.weir.Topology;
import io.weir.TopologyBuilder;
import io.weir.common.KeyValue;
import io.weir.dsl.GroupedTable;
import io.weir.dsl.RecordStream;
import io.weir.dsl.RecordTable;
import io.weir.internal.dsl.oracle.JoinOracleStream.Input;
import io.weir.internal.dsl.oracle.JoinOracleStream.Kind;
import io.weir.internal.dsl.oracle.JoinResults.Output;
import io.weir.serde.Serdes;
import io.weir.testdriver.TestDriver;
import io.weir.testdriver.TestRecord;
import java.util.ArrayList;
import java.util.List;

/**
 * Runs a {@link JoinOracleStream} through Weir's {@link TestDriver}: the operation of its
 * {@link Kind} as {@link JoinKafkaStreamsOracle} builds it for Kafka Streams, tables from topics
 * kept in {@code <topic>-store}, one partition per topic, a commit after every pipe (the driver's
 * default), so that every update goes downstream. Results are written with
 * {@code toStream().to(out)}, values as text; what each pipe caused is read when it returns.
 */
final class JoinWeirSide {

    private JoinWeirSide() {}

    static Topology topology(Kind kind) {
        TopologyBuilder builder = new TopologyBuilder();
        switch (kind) {
            case STREAM_TABLE_INNER, STREAM_TABLE_LEFT -> {
                RecordStream<String, Long> stream =
                        builder.stream(Serdes.strings(), Serdes.longs(), JoinOracleStream.STREAM);
                RecordTable<String, Long> table = table(builder, JoinOracleStream.TABLE);
                (kind == Kind.STREAM_TABLE_INNER
                                ? stream.join(table, JoinOracleStream::joined)
                                : stream.leftJoin(
                                        table.filter((k, v) -> JoinOracleStream.derivedKept(v))
                                                .mapValues(JoinOracleStream::derived),
                                        JoinOracleStream::joined))
                        .to(JoinOracleStream.OUT, Serdes.strings(), Serdes.strings());
            }
            case TABLE_INNER, TABLE_LEFT, TABLE_OUTER -> {
                RecordTable<String, Long> left = table(builder, JoinOracleStream.LEFT);
                RecordTable<String, Long> right = table(builder, JoinOracleStream.RIGHT);
                RecordTable<String, String> result = switch (kind) {
                    case TABLE_INNER -> left.join(right, JoinOracleStream::joined, Serdes.strings(), "joined");
                    case TABLE_LEFT ->
                        left.leftJoin(
                                right.filter((k, v) -> JoinOracleStream.derivedKept(v))
                                        .mapValues(JoinOracleStream::derived),
                                JoinOracleStream::joined,
                                Serdes.strings(),
                                "joined");
                    default -> left.outerJoin(right, JoinOracleStream::joined, Serdes.strings(), "joined");
                };
                result.toStream().to(JoinOracleStream.OUT, Serdes.strings(), Serdes.strings());
            }
            case GROUP_COUNT ->
                table(builder, JoinOracleStream.TABLE)
                        .groupBy((k, v) -> KeyValue.of(JoinOracleStream.group(v), v), Serdes.strings(), Serdes.longs())
                        .count("aggregate")
                        .toStream()
                        .mapValues(JoinWeirSide::text)
                        .to(JoinOracleStream.OUT, Serdes.strings(), Serdes.strings());
            case GROUP_SUM -> {
                GroupedTable<String, Long> grouped = table(builder, JoinOracleStream.TABLE)
                        .filter((k, v) -> JoinOracleStream.kept(v))
                        .mapValues(JoinOracleStream::scaled)
                        .groupBy((k, v) -> KeyValue.of(JoinOracleStream.group(v), v), Serdes.strings(), Serdes.longs());
                grouped.aggregate(() -> 0L, (k, v, sum) -> sum + v, (k, v, sum) -> sum - v, Serdes.longs(), "aggregate")
                        .toStream()
                        .mapValues(JoinWeirSide::text)
                        .to(JoinOracleStream.OUT, Serdes.strings(), Serdes.strings());
            }
            default -> throw new IllegalArgumentException(kind.toString());
        }
        return builder.build();
    }

    /** A table from {@code topic}, kept in the store {@code <topic>-store}. */
    private static RecordTable<String, Long> table(TopologyBuilder builder, String topic) {
        return builder.table(Serdes.strings(), Serdes.longs(), topic, topic + "-store");
    }

    /** Runs {@code stream}; {@code inMemory} keeps the stores in memory instead of RocksDB. */
    static JoinResults run(JoinOracleStream stream, boolean inMemory) {
        TestDriver.Builder builder = TestDriver.builder(topology(stream.kind())).startWallClock(0);
        if (inMemory) {
            builder.inMemoryStores();
        }
        try (TestDriver driver = builder.build()) {
            List<List<Output>> outputs = new ArrayList<>();
            List<Integer> deadLettered = new ArrayList<>();
            for (int i = 0; i < stream.inputs().size(); i++) {
                Input input = stream.inputs().get(i);
                driver.pipe(input.topic(), input.key(), input.value(), input.timestamp());
                List<Output> caused = new ArrayList<>();
                for (TestRecord<String, String> r :
                        driver.output(JoinOracleStream.OUT, Serdes.strings(), Serdes.strings())) {
                    caused.add(new Output(r.key(), r.value(), r.timestamp()));
                }
                outputs.add(List.copyOf(caused));
                if (!driver.deadLetters().isEmpty()) {
                    deadLettered.add(i);
                }
            }
            return new JoinResults(List.copyOf(outputs), List.copyOf(deadLettered));
        }
    }

    /** A result as text; a tombstone stays {@code null}. */
    private static String text(Long value) {
        return value == null ? null : value.toString();
    }
}
