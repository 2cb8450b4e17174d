package io.weir.internal.dsl.oracle;

import io.weir.internal.dsl.oracle.JoinOracleStream.Input;
import io.weir.internal.dsl.oracle.JoinResults.Output;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.TreeMap;
import org.apache.kafka.common.serialization.LongSerializer;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.StreamsBuilder;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.TestInputTopic;
import org.apache.kafka.streams.TestOutputTopic;
import org.apache.kafka.streams.TopologyConfig;
import org.apache.kafka.streams.TopologyTestDriver;
import org.apache.kafka.streams.kstream.Consumed;
import org.apache.kafka.streams.kstream.KTable;
import org.apache.kafka.streams.kstream.Materialized;
import org.apache.kafka.streams.kstream.Produced;
import org.apache.kafka.streams.state.KeyValueIterator;
import org.apache.kafka.streams.state.KeyValueStore;

/**
 * Runs a {@link FkJoinOracleStream} through Kafka Streams' {@code TopologyTestDriver}:
 * {@code KTable#join(KTable, Function, ValueJoiner, Materialized)} (or {@code leftJoin}) of two
 * tables from topics, the result materialized as {@code joined}, in-memory stores, record cache
 * disabled, as {@link JoinKafkaStreamsOracle} runs the other joins. The driver processes a piped
 * record, and the subscription and response records it causes in the join's internal topics,
 * before {@code pipeInput} returns, so the output and the store read after each record tell what
 * it caused.
 */
final class FkJoinKafkaStreamsOracle {

    private FkJoinKafkaStreamsOracle() {}

    static FkJoinResults run(FkJoinOracleStream stream) {
        Path stateDir = KafkaStreamsOracle.createStateDir(); // also quiets Kafka Streams' loggers
        Properties props = KafkaStreamsOracle.driverProperties("fk-join-oracle", stateDir, true);
        StreamsBuilder builder = new StreamsBuilder(new TopologyConfig(new StreamsConfig(props)));
        KTable<String, Long> left = table(builder, JoinOracleStream.LEFT);
        KTable<String, Long> right = table(builder, JoinOracleStream.RIGHT);
        Materialized<String, String, KeyValueStore<Bytes, byte[]>> joined =
                Materialized.<String, String, KeyValueStore<Bytes, byte[]>>as("joined")
                        .withKeySerde(Serdes.String())
                        .withValueSerde(Serdes.String());
        (stream.kind() == FkJoinOracleStream.Kind.INNER
                        ? left.join(right, FkJoinOracleStream::foreignKey, JoinOracleStream::joined, joined)
                        : left.leftJoin(right, FkJoinOracleStream::foreignKey, JoinOracleStream::joined, joined))
                .toStream()
                .to(JoinOracleStream.OUT, Produced.with(Serdes.String(), Serdes.String()));
        try (TopologyTestDriver driver = new TopologyTestDriver(builder.build(), props, Instant.EPOCH)) {
            TestInputTopic<String, Long> leftIn =
                    driver.createInputTopic(JoinOracleStream.LEFT, new StringSerializer(), new LongSerializer());
            TestInputTopic<String, Long> rightIn =
                    driver.createInputTopic(JoinOracleStream.RIGHT, new StringSerializer(), new LongSerializer());
            TestOutputTopic<String, String> out =
                    driver.createOutputTopic(JoinOracleStream.OUT, new StringDeserializer(), new StringDeserializer());
            KeyValueStore<String, String> store = driver.getKeyValueStore("joined");
            List<List<Output>> outputs = new ArrayList<>();
            List<Map<String, String>> stores = new ArrayList<>();
            for (Input input : stream.inputs()) {
                (input.topic().equals(JoinOracleStream.LEFT) ? leftIn : rightIn)
                        .pipeInput(input.key(), input.value(), input.timestamp());
                outputs.add(out.readRecordsToList().stream()
                        .map(r -> new Output(r.key(), r.value(), r.timestamp()))
                        .toList());
                Map<String, String> content = new TreeMap<>();
                try (KeyValueIterator<String, String> it = store.all()) {
                    it.forEachRemaining(kv -> content.put(kv.key, kv.value));
                }
                stores.add(content);
            }
            return new FkJoinResults(List.copyOf(outputs), List.copyOf(stores));
        } finally {
            KafkaStreamsOracle.deleteRecursively(stateDir);
        }
    }

    private static KTable<String, Long> table(StreamsBuilder builder, String topic) {
        return builder.table(
                topic,
                Consumed.with(Serdes.String(), Serdes.Long()),
                Materialized.<String, Long, KeyValueStore<Bytes, byte[]>>as(topic + "-store")
                        .withKeySerde(Serdes.String())
                        .withValueSerde(Serdes.Long()));
    }
}
