package io.weir.internal.dsl.oracle;

import io.weir.TopologyBuilder;
import io.weir.common.KeyValue;
import io.weir.dsl.RecordTable;
import io.weir.internal.dsl.oracle.JoinOracleStream.Input;
import io.weir.internal.dsl.oracle.JoinResults.Output;
import io.weir.serde.Serdes;
import io.weir.state.KeyValueIterator;
import io.weir.testdriver.TestDriver;
import io.weir.testdriver.TestRecord;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Runs a {@link FkJoinOracleStream} through Weir's {@link TestDriver}: the join as
 * {@link FkJoinKafkaStreamsOracle} builds it, the result kept in {@code joined}, in-memory stores,
 * a commit after every pipe. The left topic has {@value #LEFT_PARTITIONS} partitions and the right
 * one {@value #RIGHT_PARTITIONS}, so every subscription and response crosses tasks through the
 * join's repartition topics; the driver processes them before {@code pipe} returns.
 */
final class FkJoinWeirSide {

    static final int LEFT_PARTITIONS = 3;
    static final int RIGHT_PARTITIONS = 2;

    private FkJoinWeirSide() {}

    static FkJoinResults run(FkJoinOracleStream stream) {
        TopologyBuilder builder = new TopologyBuilder();
        RecordTable<String, Long> left = builder.table(
                Serdes.strings(), Serdes.longs(), JoinOracleStream.LEFT, JoinOracleStream.LEFT + "-store");
        RecordTable<String, Long> right = builder.table(
                Serdes.strings(), Serdes.longs(), JoinOracleStream.RIGHT, JoinOracleStream.RIGHT + "-store");
        (stream.kind() == FkJoinOracleStream.Kind.INNER
                        ? left.join(
                                right,
                                FkJoinOracleStream::foreignKey,
                                JoinOracleStream::joined,
                                Serdes.strings(),
                                "joined")
                        : left.leftJoin(
                                right,
                                FkJoinOracleStream::foreignKey,
                                JoinOracleStream::joined,
                                Serdes.strings(),
                                "joined"))
                .toStream()
                .to(JoinOracleStream.OUT, Serdes.strings(), Serdes.strings());
        try (TestDriver driver = TestDriver.builder(builder.build())
                .startWallClock(0)
                .inMemoryStores()
                .partitions(JoinOracleStream.LEFT, LEFT_PARTITIONS)
                .partitions(JoinOracleStream.RIGHT, RIGHT_PARTITIONS)
                .build()) {
            List<List<Output>> outputs = new ArrayList<>();
            List<Map<String, String>> stores = new ArrayList<>();
            for (Input input : stream.inputs()) {
                driver.pipe(input.topic(), input.key(), input.value(), input.timestamp());
                List<Output> caused = new ArrayList<>();
                for (TestRecord<String, String> r :
                        driver.output(JoinOracleStream.OUT, Serdes.strings(), Serdes.strings())) {
                    caused.add(new Output(r.key(), r.value(), r.timestamp()));
                }
                outputs.add(List.copyOf(caused));
                Map<String, String> content = new TreeMap<>();
                try (KeyValueIterator<String, String> it =
                        driver.<String, String>store("joined").all()) {
                    it.forEachRemaining((KeyValue<String, String> kv) -> content.put(kv.key(), kv.value()));
                }
                stores.add(content);
            }
            return new FkJoinResults(List.copyOf(outputs), List.copyOf(stores));
        }
    }
}
