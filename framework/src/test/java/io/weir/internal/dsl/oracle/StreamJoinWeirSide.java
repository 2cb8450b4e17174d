package io.weir.internal.dsl.oracle;

import io.weir.Topology;
import io.weir.TopologyBuilder;
import io.weir.dsl.JoinWindows;
import io.weir.dsl.RecordStream;
import io.weir.internal.dsl.oracle.JoinResults.Output;
import io.weir.internal.dsl.oracle.StreamJoinOracleStream.Input;
import io.weir.processor.TaskId;
import io.weir.serde.Serdes;
import io.weir.testdriver.TestDriver;
import io.weir.testdriver.TestRecord;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * Runs a {@link StreamJoinOracleStream} through Weir's {@link TestDriver}: {@code left.join},
 * {@code leftJoin} or {@code outerJoin(right)} named {@value StreamJoinOracleStream#NAME} with
 * {@code JoinWindows.of(before).after(after).allowedLateness(grace)}, results written as text to
 * {@value StreamJoinOracleStream#OUT}, late records to the late-records topic, a commit after every
 * pipe (the driver's default), one partition per topic.
 *
 * <p>Time is set up to be Kafka Streams' stream time: {@code max.out.of.orderness.ms=0}, and
 * {@code idle.timeout.ms=0}, so that an input partition whose records are all processed does not
 * hold the watermark back; the watermark is then the largest time seen over both inputs, from the
 * first record on (an input without records yet holds nothing back either). With the default
 * timeout and the driver's wall clock standing still, the watermark would be the smaller of the
 * two inputs' largest times (see {@code StreamJoinBoundariesTest}).
 */
final class StreamJoinWeirSide {

    private StreamJoinWeirSide() {}

    static Topology topology(StreamJoinOracleStream stream) {
        TopologyBuilder builder = new TopologyBuilder();
        RecordStream<String, Long> left = builder.stream(Serdes.strings(), Serdes.longs(), StreamJoinOracleStream.LEFT);
        RecordStream<String, Long> right =
                builder.stream(Serdes.strings(), Serdes.longs(), StreamJoinOracleStream.RIGHT);
        JoinWindows windows = JoinWindows.of(Duration.ofMillis(stream.before()))
                .after(Duration.ofMillis(stream.after()))
                .allowedLateness(Duration.ofMillis(stream.grace()));
        RecordStream<String, String> joined = switch (stream.kind()) {
            case INNER -> left.join(right, StreamJoinOracleStream::joined, windows, StreamJoinOracleStream.NAME);
            case LEFT -> left.leftJoin(right, StreamJoinOracleStream::joined, windows, StreamJoinOracleStream.NAME);
            case OUTER -> left.outerJoin(right, StreamJoinOracleStream::joined, windows, StreamJoinOracleStream.NAME);
        };
        joined.to(StreamJoinOracleStream.OUT, Serdes.strings(), Serdes.strings());
        return builder.build();
    }

    /** A driver as the oracle uses it (see above); {@code inMemory} keeps the stores in memory instead of RocksDB. */
    static TestDriver driver(Topology topology, boolean inMemory) {
        TestDriver.Builder builder = TestDriver.builder(topology)
                .config("max.out.of.orderness.ms", 0)
                .config("idle.timeout.ms", 0)
                .config("late.records.mode", "topic")
                .startWallClock(0);
        if (inMemory) {
            builder.inMemoryStores();
        }
        return builder.build();
    }

    static StreamJoinResults run(StreamJoinOracleStream stream, boolean inMemory) {
        return run(stream, inMemory, Set.of());
    }

    /**
     * Runs {@code stream}, revoking the join's task and assigning it again after each input whose
     * index is in {@code revokeAfter}: it restores its buffers from their changelogs and resumes
     * from the committed watermark.
     */
    static StreamJoinResults run(StreamJoinOracleStream stream, boolean inMemory, Set<Integer> revokeAfter) {
        try (TestDriver driver = driver(topology(stream), inMemory)) {
            List<List<Output>> outputs = new ArrayList<>();
            List<Integer> late = new ArrayList<>();
            for (int i = 0; i < stream.inputs().size(); i++) {
                Input input = stream.inputs().get(i);
                driver.pipe(input.topic(), input.key(), input.value(), input.timestamp());
                if (revokeAfter.contains(i)) {
                    TaskId task = driver.tasks().iterator().next();
                    driver.revoke(task);
                    driver.reassign(task);
                }
                List<Output> caused = new ArrayList<>();
                for (TestRecord<String, String> r :
                        driver.output(StreamJoinOracleStream.OUT, Serdes.strings(), Serdes.strings())) {
                    caused.add(new Output(r.key(), r.value(), r.timestamp()));
                }
                outputs.add(List.copyOf(caused));
                late.add(driver.lateRecords().size());
            }
            return new StreamJoinResults(List.copyOf(outputs), List.copyOf(late));
        }
    }
}
