package io.weir.benchmarks.verification;

import io.weir.benchmarks.SystemUnderTest;
import io.weir.benchmarks.input.InputTopic;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.ListOffsetsOptions;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.IsolationLevel;
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
    private static final long REQUEST_TIMEOUT_MS = 10_000;

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
     * @throws IllegalStateException if the system fails or {@code deadlineNanos} passes first,
     *         with how far it got
     */
    public void await(
            String groupId,
            String outputTopic,
            int outputPartitions,
            SystemUnderTest.Running running,
            long deadlineNanos)
            throws InterruptedException {
        long committed = 0;
        while (true) {
            checkRunning(running, committed);
            committed = committedRecords(groupId);
            if (committed >= input.records()) {
                long written = outputOffsets(outputTopic, outputPartitions);
                if (written >= minOutputOffsets) {
                    return;
                }
            }
            if (System.nanoTime() - deadlineNanos > 0) {
                throw new IllegalStateException(
                        "timed out after committing " + committed + " of " + input.records() + " records");
            }
            Thread.sleep(INTERVAL.toMillis()); // a polling interval, not a hope: the loop re-checks the condition
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
     * @throws IllegalStateException if the system fails or {@code deadlineNanos} passes first
     */
    public long awaitCommittedOutput(
            String groupId,
            String bootstrapServers,
            String outputTopic,
            int outputPartitions,
            SystemUnderTest.Running running,
            long deadlineNanos)
            throws InterruptedException {
        long committed = 0;
        long counted = 0;
        try (CommittedOutputCounter counter =
                new CommittedOutputCounter(bootstrapServers, outputTopic, outputPartitions)) {
            while (true) {
                checkRunning(running, committed);
                committed = committedRecords(groupId);
                if (committed >= input.records()) {
                    Map<TopicPartition, Long> stable =
                            outputOffsets(outputTopic, outputPartitions, IsolationLevel.READ_COMMITTED);
                    long at = System.nanoTime();
                    long bound =
                            stable.values().stream().mapToLong(Long::longValue).sum();
                    if (bound >= minOutputOffsets) {
                        counted = counter.countBelow(stable, deadlineNanos);
                        if (counted >= minOutputOffsets) {
                            return at;
                        }
                    }
                }
                if (System.nanoTime() - deadlineNanos > 0) {
                    throw new IllegalStateException("timed out after committing " + committed + " of "
                            + input.records() + " records, with " + counted + " of " + minOutputOffsets
                            + " output records counted");
                }
                Thread.sleep(INTERVAL.toMillis());
            }
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
    private long committedRecords(String groupId) throws InterruptedException {
        Map<TopicPartition, OffsetAndMetadata> offsets =
                get(admin.listConsumerGroupOffsets(groupId).partitionsToOffsetAndMetadata());
        long sum = 0;
        for (Map.Entry<TopicPartition, Long> end : input.endOffsets().entrySet()) {
            OffsetAndMetadata committed = offsets.get(end.getKey());
            sum += committed == null ? 0 : Math.min(committed.offset(), end.getValue());
        }
        return sum;
    }

    private long outputOffsets(String topic, int partitions) throws InterruptedException {
        return outputOffsets(topic, partitions, IsolationLevel.READ_UNCOMMITTED).values().stream()
                .mapToLong(Long::longValue)
                .sum();
    }

    /** The end offsets (read_uncommitted) or last stable offsets (read_committed) of the output. */
    private Map<TopicPartition, Long> outputOffsets(String topic, int partitions, IsolationLevel isolation)
            throws InterruptedException {
        Map<TopicPartition, OffsetSpec> request = IntStream.range(0, partitions)
                .boxed()
                .collect(Collectors.toMap(p -> new TopicPartition(topic, p), p -> OffsetSpec.latest()));
        return get(admin.listOffsets(request, new ListOffsetsOptions(isolation)).all()).entrySet().stream()
                .collect(Collectors.toMap(Map.Entry::getKey, e -> e.getValue().offset()));
    }

    private static <T> T get(org.apache.kafka.common.KafkaFuture<T> future) throws InterruptedException {
        try {
            return future.get(REQUEST_TIMEOUT_MS, TimeUnit.MILLISECONDS);
        } catch (ExecutionException e) {
            throw new IllegalStateException("admin request failed: " + e.getCause(), e.getCause());
        } catch (TimeoutException e) {
            throw new IllegalStateException("admin request timed out after " + REQUEST_TIMEOUT_MS + " ms", e);
        }
    }
}
