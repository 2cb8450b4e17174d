package io.weir.internal.task;

import io.weir.internal.time.PartitionTime;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.consumer.Consumer;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.TopicPartition;

/**
 * A task's input partitions: the records fetched and not processed yet, buffered per partition,
 * and which partition's record comes next (the oldest by its source's time, across partitions). A
 * partition whose buffer is full is paused until the task has taken half of it, so memory is
 * bounded by {@code buffered.records.per.partition}; every partition stays paused while the task's
 * stores restore.
 *
 * <p>Owned by the task's stream thread and not thread-safe, except {@link #isRestoring}, which any
 * thread may read.
 */
final class TaskInputs {

    private final Consumer<byte[], byte[]> consumer;
    private final int maxBuffered;
    private final Map<TopicPartition, PartitionState> partitions = new HashMap<>();
    private PartitionState[] order = new PartitionState[0];
    private int buffered;
    /** True until the task's stores are restored; its input partitions stay paused meanwhile. */
    private volatile boolean restoring; // read by other threads for the assignor (see isRestoring)

    /** @param maxBuffered {@code buffered.records.per.partition} */
    TaskInputs(Consumer<byte[], byte[]> consumer, int maxBuffered) {
        this.consumer = consumer;
        this.maxBuffered = maxBuffered;
    }

    /** Adds {@code tp} (if new), read by {@code source}; returns its state. */
    PartitionState add(TopicPartition tp, SourceNode source, long nowMs) {
        PartitionState added = partitions.computeIfAbsent(tp, k -> new PartitionState(k, source));
        added.time.activeAt(nowMs);
        order = partitions.values().toArray(new PartitionState[0]);
        if (restoring) {
            consumer.pause(List.of(tp));
        }
        return added;
    }

    /**
     * Records the task has yet to process: those buffered here and those still on the brokers,
     * as the consumer knows it from its last fetches (no request); a partition it has not fetched
     * yet counts nothing.
     */
    long lag() {
        long lag = buffered;
        for (TopicPartition tp : partitions.keySet()) {
            try {
                java.util.OptionalLong l = consumer.currentLag(tp);
                if (l.isPresent()) {
                    lag += l.getAsLong();
                }
            } catch (IllegalStateException notAssigned) {
                // being revoked: nothing to catch up on here
            }
        }
        return lag;
    }

    Collection<TopicPartition> partitions() {
        return partitions.keySet();
    }

    /** Every partition's time, in the order of {@link #states}. */
    PartitionTime[] times() {
        PartitionTime[] times = new PartitionTime[order.length];
        for (int i = 0; i < order.length; i++) {
            times[i] = order[i].time;
        }
        return times;
    }

    /** Every partition's state, in a fixed order; the array is shared, not to be changed. */
    PartitionState[] states() {
        return order;
    }

    /** Buffers records fetched from {@code tp}, pausing it once its buffer is full. */
    void addRecords(TopicPartition tp, List<ConsumerRecord<byte[], byte[]>> records, long nowMs) {
        PartitionState p = partitions.get(tp);
        if (p == null || records.isEmpty()) {
            return;
        }
        if (p.firstFetched < 0) {
            p.firstFetched = records.get(0).offset();
        }
        p.buffer.addAll(records);
        p.time.activeAt(nowMs);
        buffered += records.size();
        if (!p.paused && p.buffer.size() >= maxBuffered) {
            consumer.pause(List.of(tp));
            p.paused = true;
        }
    }

    /** True if some record is buffered. */
    boolean hasBuffered() {
        return buffered > 0;
    }

    /** True if no record of {@code tp} is buffered (all fetched ones were taken). */
    boolean drained(TopicPartition tp) {
        PartitionState p = partitions.get(tp);
        return p == null || p.buffer.isEmpty();
    }

    /** The partition whose buffered record is oldest, to take next; call while {@link #hasBuffered}. */
    PartitionState next() {
        if (order.length == 1) {
            return order[0];
        }
        PartitionState best = null;
        long bestTs = Long.MAX_VALUE;
        for (PartitionState p : order) {
            if (!p.buffer.isEmpty() && (best == null || p.headTimestamp() < bestTs)) {
                best = p;
                bestTs = p.headTimestamp();
            }
        }
        return best;
    }

    /** Takes the head record of {@code p}'s buffer (see {@link PartitionState#takeHead} for its read form). */
    ConsumerRecord<byte[], byte[]> take(PartitionState p) {
        buffered--;
        return p.buffer.pollFirst();
    }

    /** Partitions paused because their buffer is full. */
    int pausedForFullBuffers() {
        int n = 0;
        for (PartitionState p : order) {
            n += p.paused ? 1 : 0;
        }
        return n;
    }

    /** Resumes the partitions paused for a full buffer once half of it was taken (unless restoring). */
    void resumeDrained() {
        for (PartitionState p : order) {
            if (p.paused && p.buffer.size() <= maxBuffered / 2) {
                p.paused = false;
                if (restoring) {
                    continue;
                }
                consumer.resume(List.of(p.tp));
            }
        }
    }

    /** Holds every partition back until {@link #finishRestoring}. */
    void startRestoring() {
        restoring = true;
        consumer.pause(partitions.keySet());
    }

    /** True while the stores restore; safe to read from any thread. */
    boolean isRestoring() {
        return restoring;
    }

    /** The stores are restored: the partitions not paused for a full buffer resume. */
    void finishRestoring(long nowMs) {
        restoring = false;
        for (PartitionState p : order) {
            p.time.activeAt(nowMs); // the restore kept it silent; idleness counts from now
            if (!p.paused) {
                consumer.resume(List.of(p.tp));
            }
        }
    }

    /**
     * The work since the last commit was aborted: the buffered records are dropped and every
     * partition goes back to its committed offset (or its first fetched one, before any commit).
     */
    void rewind() {
        for (PartitionState p : order) {
            long rewind = p.rewindOffset();
            if (rewind >= 0) {
                consumer.seek(p.tp, rewind);
            }
            p.nextToProcess = p.committed;
            p.takenSinceCommit = 0;
            buffered -= p.buffer.size();
            p.clearBuffer();
            if (p.paused) {
                p.paused = false;
                if (!restoring) {
                    consumer.resume(List.of(p.tp));
                }
            }
        }
    }
}
