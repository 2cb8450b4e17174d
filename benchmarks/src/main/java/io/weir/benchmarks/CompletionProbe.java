package io.weir.benchmarks;

import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.stream.Collectors;
import java.util.stream.IntStream;

import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
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
 */
final class CompletionProbe {

    static final Duration INTERVAL = Duration.ofMillis(50);
    private static final long REQUEST_TIMEOUT_MS = 10_000;

    private final Admin admin;
    private final InputTopic input;
    private final long minOutputOffsets;

    CompletionProbe(Admin admin, InputTopic input, long minOutputOffsets) {
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
    void await(String groupId, String outputTopic, int outputPartitions, SystemUnderTest.Running running,
            long deadlineNanos) throws InterruptedException {
        long committed = 0;
        while (true) {
            Throwable failure = running.failure().orElse(null);
            if (failure != null) {
                throw new IllegalStateException("failed after committing " + committed + " of " + input.records()
                        + " records: " + failure, failure);
            }
            committed = committedRecords(groupId);
            if (committed >= input.records()) {
                long written = outputOffsets(outputTopic, outputPartitions);
                if (written >= minOutputOffsets) {
                    return;
                }
            }
            if (System.nanoTime() - deadlineNanos > 0) {
                throw new IllegalStateException("timed out after committing " + committed + " of " + input.records()
                        + " records");
            }
            Thread.sleep(INTERVAL.toMillis()); // a polling interval, not a hope: the loop re-checks the condition
        }
    }

    /** Records processed per the group's committed offsets, counting each partition up to its end. */
    private long committedRecords(String groupId) throws InterruptedException {
        Map<TopicPartition, OffsetAndMetadata> offsets = get(
                admin.listConsumerGroupOffsets(groupId).partitionsToOffsetAndMetadata());
        long sum = 0;
        for (Map.Entry<TopicPartition, Long> end : input.endOffsets().entrySet()) {
            OffsetAndMetadata committed = offsets.get(end.getKey());
            sum += committed == null ? 0 : Math.min(committed.offset(), end.getValue());
        }
        return sum;
    }

    private long outputOffsets(String topic, int partitions) throws InterruptedException {
        Map<TopicPartition, OffsetSpec> request = IntStream.range(0, partitions).boxed()
                .collect(Collectors.toMap(p -> new TopicPartition(topic, p), p -> OffsetSpec.latest()));
        return get(admin.listOffsets(request).all()).values().stream().mapToLong(i -> i.offset()).sum();
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
