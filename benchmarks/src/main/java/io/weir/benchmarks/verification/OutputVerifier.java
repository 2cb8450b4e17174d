package io.weir.benchmarks.verification;

import io.weir.benchmarks.Guarantee;
import io.weir.benchmarks.KafkaClients;
import io.weir.benchmarks.input.WindowModel;
import io.weir.benchmarks.input.Workload;
import io.weir.common.internal.Deadline;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Consumer;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;

/**
 * Checks, off the clock, that a run really did the work it was timed for: the output holds the
 * transformed records ({@value Workload#VALUE_BYTES} bytes, no lower-case letter left), exactly as
 * many as the input under exactly-once, at least as many under at-least-once. Reads with
 * {@code read_committed}, so aborted transactions do not count.
 *
 * <p>For a count, the latest value of each key in the output must be that key's count: the latest
 * values must cover exactly the input's distinct keys and add up to exactly the input's records.
 *
 * <p>For a windowed count ({@link #verifyWindowCounts}), every output record must be one (key,
 * window) of the input, emitted once, with the count the generator's {@link WindowModel} holds for
 * it, and no earlier than its window closed; every (key, window) the input closes must be there.
 *
 * <p>Off by default ({@code --verify}): reading every output again costs more than the run.
 */
public final class OutputVerifier {

    private final String bootstrapServers;

    public OutputVerifier(String bootstrapServers) {
        this.bootstrapServers = bootstrapServers;
    }

    /** What is wrong with the output of the map, or empty if it is right. */
    public Optional<String> verify(String topic, int partitions, long expected, Guarantee guarantee) {
        long[] malformed = {0};
        long count;
        try {
            count = readCommitted(topic, partitions, expected, r -> {
                if (!transformed(r.value())) {
                    malformed[0]++;
                }
            });
        } catch (IllegalStateException e) {
            return Optional.of(e.getMessage());
        }
        if (malformed[0] > 0) {
            return Optional.of(malformed[0] + " of " + count + " output records are not transformed values");
        }
        boolean countOk = guarantee == Guarantee.EXACTLY_ONCE ? count == expected : count >= expected;
        if (!countOk) {
            return Optional.of("output holds " + count + " committed records, expected "
                    + (guarantee == Guarantee.EXACTLY_ONCE ? "exactly " : "at least ") + expected);
        }
        return Optional.empty();
    }

    /**
     * What is wrong with the output of an exactly-once count of {@code expectedRecords} records over
     * {@code expectedKeys} distinct keys, or empty if it is right.
     */
    public Optional<String> verifyCounts(String topic, int partitions, long expectedRecords, long expectedKeys) {
        Map<ByteBuffer, Long> latest = new HashMap<>();
        long[] malformed = {0};
        try {
            readCommitted(topic, partitions, expectedRecords, r -> {
                if (r.key() == null || r.value() == null || r.value().length != Long.BYTES) {
                    malformed[0]++;
                } else {
                    latest.put(
                            ByteBuffer.wrap(r.key()), ByteBuffer.wrap(r.value()).getLong());
                }
            });
        } catch (IllegalStateException e) {
            return Optional.of(e.getMessage());
        }
        if (malformed[0] > 0) {
            return Optional.of(malformed[0] + " output records are not a key with an 8-byte count");
        }
        long sum = latest.values().stream().mapToLong(Long::longValue).sum();
        if (latest.size() != expectedKeys || sum != expectedRecords) {
            return Optional.of("the latest counts cover " + latest.size() + " keys and add up to " + sum + "; expected "
                    + expectedKeys + " keys and " + expectedRecords + " records");
        }
        return Optional.empty();
    }

    /**
     * What is wrong with the output of an exactly-once count per key in the windows of
     * {@code model}, or empty if it is right: keys {@code [start: 8][end: 8][key]}, values 8-byte
     * counts; exactly one record, with the model's count, for every non-empty (key, window) whose
     * window the input closes ({@link WindowModel.Closure#CLOSED}), none for one it leaves open, at
     * most one for one on the boundary ({@link WindowModel.Closure#EITHER}), nothing else.
     */
    public Optional<String> verifyWindowCounts(String topic, int partitions, WindowModel model) {
        byte[] emitted = new byte[model.cells()]; // emissions per cell, saturating at 2
        long[] malformed = {0};
        long[] unknown = {0};
        long[] duplicates = {0};
        long[] early = {0};
        long[] wrong = {0};
        StringBuilder example = new StringBuilder();
        long read;
        try {
            read = readCommitted(topic, partitions, model.possibleResults(), r -> {
                byte[] k = r.key();
                if (k == null || k.length < 2 * Long.BYTES || r.value() == null || r.value().length != Long.BYTES) {
                    malformed[0]++;
                    return;
                }
                ByteBuffer key = ByteBuffer.wrap(k);
                long start = key.getLong();
                long end = key.getLong();
                byte[] inner = new byte[key.remaining()];
                key.get(inner);
                long value = ByteBuffer.wrap(r.value()).getLong();
                int cell = model.cell(start, end, inner);
                if (cell < 0) {
                    unknown[0]++;
                    return;
                }
                if (emitted[cell] > 0) {
                    duplicates[0]++;
                }
                emitted[cell] = (byte) Math.min(2, emitted[cell] + 1);
                if (model.closure(cell) == WindowModel.Closure.OPEN) {
                    early[0]++;
                }
                if (value != model.count(cell)) {
                    wrong[0]++;
                    if (example.isEmpty()) {
                        example.append(" (e.g. ")
                                .append(model.keyName(cell))
                                .append(" in the window from ")
                                .append(start)
                                .append(": ")
                                .append(value)
                                .append(", expected ")
                                .append(model.count(cell))
                                .append(')');
                    }
                }
            });
        } catch (IllegalStateException e) {
            return Optional.of(e.getMessage());
        }
        long missing = 0;
        long boundary = 0;
        for (int cell = 0; cell < emitted.length; cell++) {
            if (emitted[cell] == 0 && model.count(cell) > 0 && model.closure(cell) == WindowModel.Closure.CLOSED) {
                missing++;
            }
            if (emitted[cell] > 0 && model.closure(cell) == WindowModel.Closure.EITHER) {
                boundary++;
            }
        }
        List<String> problems = new ArrayList<>();
        if (malformed[0] > 0) {
            problems.add(malformed[0] + " records are not a windowed key with an 8-byte count");
        }
        if (unknown[0] > 0) {
            problems.add(unknown[0] + " records are of no key and 10 s window of the input");
        }
        if (duplicates[0] > 0) {
            problems.add(duplicates[0] + " (key, window) results were emitted more than once");
        }
        if (early[0] > 0) {
            problems.add(early[0] + " results are of windows the input does not close");
        }
        if (wrong[0] > 0) {
            problems.add(wrong[0] + " results have a wrong count" + example);
        }
        if (missing > 0) {
            problems.add(missing + " of " + model.closedResults() + " closed (key, window) results are missing");
        }
        if (!problems.isEmpty()) {
            return Optional.of(String.join("; ", problems) + " (" + read + " output records read)");
        }
        if (read != model.closedResults() + boundary) {
            // Every record was accounted for above; this would be a bug of the verifier itself.
            return Optional.of("read " + read + " output records, expected " + (model.closedResults() + boundary));
        }
        return Optional.empty();
    }

    /**
     * Reads every committed record of {@code topic} into {@code sink}, in offset order per
     * partition; returns the count.
     *
     * @throws IllegalStateException if that takes longer than a time scaled by {@code expected}
     */
    private long readCommitted(
            String topic, int partitions, long expected, Consumer<ConsumerRecord<byte[], byte[]>> sink) {
        List<TopicPartition> tps = CommittedReads.partitions(topic, partitions);
        Deadline deadline = Deadline.after(Duration.ofSeconds(60 + expected / 50_000));
        long[] count = {0};
        try (KafkaConsumer<byte[], byte[]> consumer = KafkaClients.readCommittedInBulk(bootstrapServers)) {
            consumer.assign(tps);
            consumer.seekToBeginning(tps);
            // With read_committed these are the last stable offsets: every committed record is below them.
            Map<TopicPartition, Long> end = consumer.endOffsets(tps);
            CommittedReads.readTo(
                    consumer,
                    end,
                    deadline,
                    () -> "verification timed out after reading " + count[0] + " output records",
                    r -> {
                        count[0]++;
                        sink.accept(r);
                    });
        }
        return count[0];
    }

    private static boolean transformed(byte[] value) {
        if (value == null || value.length != Workload.VALUE_BYTES) {
            return false;
        }
        for (byte b : value) {
            if (b >= 'a' && b <= 'z') {
                return false;
            }
        }
        return true;
    }
}
