package io.weir.benchmarks.verification;

import io.weir.benchmarks.SystemUnderTest;
import io.weir.benchmarks.input.InputTopic;
import io.weir.common.internal.Deadline;
import io.weir.common.internal.KafkaCalls;
import io.weir.common.internal.Poll;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.ListOffsetsOptions;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.IsolationLevel;
import org.apache.kafka.common.KafkaFuture;
import org.apache.kafka.common.TopicPartition;

/**
 * Decides, from outside the system under test, when a processing run is done: the group's
 * committed offsets on the input topic have reached the input's end offsets, and the output topic
 * holds at least a minimum of offsets: as many as there are input records for the map (one output
 * per input), as many as there are distinct keys for a count (whose record cache folds the updates
 * of a key between commits, but forwards every key at least once).
 *
 * <p>Why committed offsets rather than counting output: under exactly-once the output's end
 * offsets also count transaction markers, so they overshoot; committed offsets are exact in both
 * guarantees, because every system commits an offset only after (at-least-once) or atomically with
 * (exactly-once) the output of the records before it. The output check is a sanity check that
 * something was written at all. The probe asks the broker every {@link #INTERVAL}, which bounds
 * the measurement error.
 *
 * <p>{@link #awaitCommittedOutput} (the windowed count) counts the output instead: its output is
 * what closing windows emits, and what a minimum of end offsets says about it is too little (see
 * there).
 */
public final class CompletionProbe {

    static final Duration INTERVAL = Duration.ofMillis(50);
    private static final Duration REQUEST_TIMEOUT = Duration.ofSeconds(10);

    private final Admin admin;
    private final InputTopic input;
    private final long minOutputOffsets;

    public CompletionProbe(Admin admin, InputTopic input, long minOutputOffsets) {
        this.admin = admin;
        this.input = input;
        this.minOutputOffsets = minOutputOffsets;
    }

    /**
     * Returns once the run is complete.
     *
     * @throws IllegalStateException if the system fails or {@code deadline} passes first, with how
     *         far it got
     */
    public void await(
            String groupId,
            String outputTopic,
            int outputPartitions,
            SystemUnderTest.Running running,
            Deadline deadline)
            throws InterruptedException {
        long[] committed = {0};
        boolean complete = Poll.until(
                () -> {
                    checkRunning(running, committed[0]);
                    committed[0] = committedRecords(groupId);
                    return committed[0] >= input.records()
                            && outputOffsets(outputTopic, outputPartitions) >= minOutputOffsets;
                },
                deadline.remaining(),
                INTERVAL);
        if (!complete) {
            throw new IllegalStateException(
                    "timed out after committing " + committed[0] + " of " + input.records() + " records");
        }
    }

    /**
     * Returns once, at some moment T, the group's committed offsets were at the input's end and
     * the output held at least the minimum of committed records, counted with a
     * {@code read_committed} consumer up to the output's last stable offsets as they were at T;
     * returns T ({@link System#nanoTime()}).
     *
     * <p>Exact where a minimum of end offsets is not: under exactly-once end offsets also count
     * transaction markers, and a system that emitted closed windows after (rather than with) the
     * commit of the input offsets that closed them would be timed to its last emission, not to its
     * last commit. The counting happens after T, while the system runs on with nothing left to do
     * (unless its output was still short), so reading the output is not on the clock; a count that
     * falls short resumes where it stopped at the next check.
     *
     * @throws IllegalStateException if the system fails or {@code deadline} passes first
     */
    public long awaitCommittedOutput(
            String groupId,
            String bootstrapServers,
            String outputTopic,
            int outputPartitions,
            SystemUnderTest.Running running,
            Deadline deadline)
            throws InterruptedException {
        long[] committed = {0};
        long[] counted = {0};
        try (CommittedOutputCounter counter =
                new CommittedOutputCounter(bootstrapServers, outputTopic, outputPartitions)) {
            Optional<Long> at = Poll.untilPresent(
                    () -> {
                        checkRunning(running, committed[0]);
                        committed[0] = committedRecords(groupId);
                        if (committed[0] < input.records()) {
                            return Optional.empty();
                        }
                        Map<TopicPartition, Long> stable =
                                outputOffsets(outputTopic, outputPartitions, IsolationLevel.READ_COMMITTED);
                        long now = System.nanoTime();
                        long bound = stable.values().stream()
                                .mapToLong(Long::longValue)
                                .sum();
                        if (bound < minOutputOffsets) {
                            return Optional.empty();
                        }
                        counted[0] = counter.countBelow(stable, deadline);
                        return counted[0] >= minOutputOffsets ? Optional.of(now) : Optional.empty();
                    },
                    deadline.remaining(),
                    INTERVAL);
            return at.orElseThrow(() -> new IllegalStateException("timed out after committing " + committed[0]
                    + " of " + input.records() + " records, with " + counted[0] + " of " + minOutputOffsets
                    + " output records counted"));
        }
    }

    private void checkRunning(SystemUnderTest.Running running, long committed) {
        Throwable failure = running.failure().orElse(null);
        if (failure != null) {
            throw new IllegalStateException(
                    "failed after committing " + committed + " of " + input.records() + " records: " + failure,
                    failure);
        }
    }

    /** Records processed per the group's committed offsets, counting each partition up to its end. */
    private long committedRecords(String groupId) {
        Map<TopicPartition, OffsetAndMetadata> offsets = get(
                admin.listConsumerGroupOffsets(groupId).partitionsToOffsetAndMetadata(),
                "list the offsets of " + groupId);
        long sum = 0;
        for (Map.Entry<TopicPartition, Long> end : input.endOffsets().entrySet()) {
            OffsetAndMetadata committed = offsets.get(end.getKey());
            sum += committed == null ? 0 : Math.min(committed.offset(), end.getValue());
        }
        return sum;
    }

    private long outputOffsets(String topic, int partitions) {
        return outputOffsets(topic, partitions, IsolationLevel.READ_UNCOMMITTED).values().stream()
                .mapToLong(Long::longValue)
                .sum();
    }

    /** The end offsets (read_uncommitted) or last stable offsets (read_committed) of the output. */
    private Map<TopicPartition, Long> outputOffsets(String topic, int partitions, IsolationLevel isolation) {
        Map<TopicPartition, OffsetSpec> request = IntStream.range(0, partitions)
                .boxed()
                .collect(Collectors.toMap(p -> new TopicPartition(topic, p), p -> OffsetSpec.latest()));
        return get(admin.listOffsets(request, new ListOffsetsOptions(isolation)).all(), "list the offsets of " + topic)
                .entrySet()
                .stream()
                .collect(Collectors.toMap(Map.Entry::getKey, e -> e.getValue().offset()));
    }

    private static <T> T get(KafkaFuture<T> future, String what) {
        return KafkaCalls.get(future, REQUEST_TIMEOUT, what);
    }
}
