package io.weir.internal.dsl.oracle;

import io.weir.internal.dsl.oracle.JoinResults.Output;
import io.weir.internal.dsl.oracle.StreamJoinOracleStream.Input;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import org.apache.kafka.common.Metric;
import org.apache.kafka.common.serialization.LongSerializer;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.apache.kafka.streams.StreamsBuilder;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.TestInputTopic;
import org.apache.kafka.streams.TestOutputTopic;
import org.apache.kafka.streams.TopologyConfig;
import org.apache.kafka.streams.TopologyTestDriver;
import org.apache.kafka.streams.kstream.Consumed;
import org.apache.kafka.streams.kstream.JoinWindows;
import org.apache.kafka.streams.kstream.KStream;
import org.apache.kafka.streams.kstream.Produced;
import org.apache.kafka.streams.kstream.StreamJoined;

/**
 * Runs a {@link StreamJoinOracleStream} through Kafka Streams' {@code TopologyTestDriver}: the same
 * join with {@code JoinWindows.ofTimeDifferenceAndGrace(before, grace).after(after)} (so
 * {@code before} and {@code after} as on the Weir side), record cache disabled, results written as
 * text. The driver runs one task with one partition per topic, so the join's stream time is the
 * largest time seen over both inputs, as the Weir side's watermark.
 *
 * <p>Two settings make it an oracle of the join rather than of its throttling:
 * <ul>
 *   <li>its in-memory window stores ({@code dsl.store.suppliers.class}): they drop a record from a
 *       side's buffer exactly when it is older than the retention, where the default RocksDB ones
 *       drop whole segments of at least a minute, so that they keep far more than the window;</li>
 *   <li>{@code __emit.interval.ms.kstreams.outer.join.spurious.results.fix__=0}: Kafka Streams
 *       looks for the unmatched results of left and outer joins at most once per interval of
 *       wall-clock time (1 s by default), and the driver's wall clock stands still, so that after
 *       the first look none would be emitted.</li>
 * </ul>
 * What a record dropped is read per input record from the task's {@code dropped-records-total}:
 * records without a key or value (except on an outer side, see {@code StreamJoinBoundariesTest})
 * and records a side's window store refused as expired.
 */
final class StreamJoinKafkaStreamsOracle {

    private StreamJoinKafkaStreamsOracle() {}

    static StreamJoinResults run(StreamJoinOracleStream stream) {
        Path stateDir = KafkaStreamsOracle.createStateDir(); // also quiets Kafka Streams' loggers
        Properties props = KafkaStreamsOracle.driverProperties("stream-join-oracle", stateDir, true);
        props.put(StreamsConfig.InternalConfig.EMIT_INTERVAL_MS_KSTREAMS_OUTER_JOIN_SPURIOUS_RESULTS_FIX, 0L);
        StreamsBuilder builder = new StreamsBuilder(new TopologyConfig(new StreamsConfig(props)));
        build(builder, stream);
        try (TopologyTestDriver driver = new TopologyTestDriver(builder.build(), props, Instant.EPOCH)) {
            TestInputTopic<String, Long> left =
                    driver.createInputTopic(StreamJoinOracleStream.LEFT, new StringSerializer(), new LongSerializer());
            TestInputTopic<String, Long> right =
                    driver.createInputTopic(StreamJoinOracleStream.RIGHT, new StringSerializer(), new LongSerializer());
            TestOutputTopic<String, String> out = driver.createOutputTopic(
                    StreamJoinOracleStream.OUT, new StringDeserializer(), new StringDeserializer());
            Metric dropped = KafkaStreamsOracle.droppedRecords(driver);
            List<List<Output>> outputs = new ArrayList<>();
            List<Integer> droppedPerInput = new ArrayList<>();
            double before = KafkaStreamsOracle.value(dropped);
            for (Input input : stream.inputs()) {
                (input.left() ? left : right).pipeInput(input.key(), input.value(), input.timestamp());
                outputs.add(out.readRecordsToList().stream()
                        .map(r -> new Output(r.key(), r.value(), r.timestamp()))
                        .toList());
                double after = KafkaStreamsOracle.value(dropped);
                droppedPerInput.add((int) Math.round(after - before));
                before = after;
            }
            return new StreamJoinResults(List.copyOf(outputs), List.copyOf(droppedPerInput));
        } finally {
            KafkaStreamsOracle.deleteRecursively(stateDir);
        }
    }

    private static void build(StreamsBuilder builder, StreamJoinOracleStream stream) {
        Consumed<String, Long> consumed = Consumed.with(Serdes.String(), Serdes.Long());
        KStream<String, Long> left = builder.stream(StreamJoinOracleStream.LEFT, consumed);
        KStream<String, Long> right = builder.stream(StreamJoinOracleStream.RIGHT, consumed);
        JoinWindows windows = JoinWindows.ofTimeDifferenceAndGrace(
                        Duration.ofMillis(stream.before()), Duration.ofMillis(stream.grace()))
                .after(Duration.ofMillis(stream.after()));
        StreamJoined<String, Long, Long> joined = StreamJoined.with(Serdes.String(), Serdes.Long(), Serdes.Long());
        KStream<String, String> result = switch (stream.kind()) {
            case INNER -> left.join(right, StreamJoinOracleStream::joined, windows, joined);
            case LEFT -> left.leftJoin(right, StreamJoinOracleStream::joined, windows, joined);
            case OUTER -> left.outerJoin(right, StreamJoinOracleStream::joined, windows, joined);
        };
        result.to(StreamJoinOracleStream.OUT, Produced.with(Serdes.String(), Serdes.String()));
    }
}
