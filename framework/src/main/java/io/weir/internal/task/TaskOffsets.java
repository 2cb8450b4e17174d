package io.weir.internal.task;

import io.weir.internal.time.Watermarks;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import java.util.function.BiConsumer;
import java.util.function.ObjLongConsumer;
import org.apache.kafka.clients.consumer.Consumer;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;

/**
 * A task's input offsets: those committed (by it, or by its partitions' previous owner, with the
 * watermark in their metadata), and those the next commit writes. Reads a new partition's committed
 * offset and times once, so the watermark resumes where the last owner committed it.
 *
 * <p>Owned by the task's stream thread; not thread-safe.
 */
final class TaskOffsets {

    private final TaskInputs inputs;
    private final Consumer<byte[], byte[]> consumer;
    private final Watermarks watermarks;
    /** True while some partition's committed offset and time are still to be read. */
    private boolean resumePending;

    TaskOffsets(TaskInputs inputs, Consumer<byte[], byte[]> consumer, Watermarks watermarks) {
        this.inputs = inputs;
        this.consumer = consumer;
        this.watermarks = watermarks;
    }

    /** A partition joined the task; its committed offset and times are read before its records. */
    void added(PartitionState p) {
        resumePending |= !p.resumed;
    }

    /**
     * Reads, once per newly assigned partition, its committed offset and the task times committed
     * with it, so the watermark resumes where the last owner committed it.
     */
    void resumeTimes() {
        if (!resumePending) {
            return;
        }
        Set<TopicPartition> toRead = new HashSet<>();
        for (PartitionState p : inputs.states()) {
            if (!p.resumed) {
                toRead.add(p.tp);
            }
        }
        Map<TopicPartition, OffsetAndMetadata> committed = consumer.committed(toRead);
        for (PartitionState p : inputs.states()) {
            if (p.resumed) {
                continue;
            }
            OffsetAndMetadata c = committed.get(p.tp);
            if (c != null) {
                if (p.committed < 0) {
                    p.committed = c.offset();
                }
                watermarks.resume(p.time, c.metadata());
            }
            p.resumed = true;
        }
        resumePending = false;
    }

    /** Calls {@code out} with every partition the task committed and its committed offset. */
    void forEachCommitted(BiConsumer<TopicPartition, Long> out) {
        for (PartitionState p : inputs.states()) {
            if (p.committed >= 0) {
                out.accept(p.tp, p.committed);
            }
        }
    }

    /** See {@link ActiveTask#committedOffsets()}. */
    Map<TopicPartition, OffsetAndMetadata> committedOffsets() {
        // A task held before it processed anything (taken over during a savepoint) has not read
        // what its predecessor committed yet: read it now, or its partitions would be left out.
        resumeTimes();
        Map<TopicPartition, OffsetAndMetadata> offsets = new HashMap<>();
        for (PartitionState p : inputs.states()) {
            if (p.committed >= 0) {
                offsets.put(p.tp, new OffsetAndMetadata(p.committed, watermarks.metadata(p.time)));
            }
        }
        return offsets;
    }

    /**
     * For each input partition that advanced since the last commit, the offset of the next record
     * to process, with the watermark in its metadata.
     */
    Map<TopicPartition, OffsetAndMetadata> committable() {
        Map<TopicPartition, OffsetAndMetadata> offsets = new HashMap<>();
        // The watermark goes into the metadata of every partition the commit covers; when it moved
        // without input (idleness), the partitions are committed again at their offsets to carry it.
        boolean watermarkMoved = watermarks.changedSinceCommit();
        for (PartitionState p : inputs.states()) {
            long offset = p.advancedSinceCommit()
                    ? p.nextToProcess
                    : !watermarkMoved ? -1 : p.committed >= 0 ? p.committed : p.firstFetched;
            if (offset >= 0) {
                offsets.put(p.tp, new OffsetAndMetadata(offset, watermarks.metadata(p.time)));
            }
        }
        return offsets;
    }

    /** The next offset to process of each partition that advanced since the last commit. */
    Map<TopicPartition, Long> advanced() {
        Map<TopicPartition, Long> inputOffsets = new HashMap<>();
        for (PartitionState p : inputs.states()) {
            if (p.advancedSinceCommit()) {
                inputOffsets.put(p.tp, p.nextToProcess);
            }
        }
        return inputOffsets;
    }

    /** The commit went through: what was taken counts as committed, the advanced offsets too. */
    void committed(DeadLetters deadLetters) {
        for (PartitionState p : inputs.states()) {
            p.committedTaken += p.takenSinceCommit;
            p.takenSinceCommit = 0;
            if (p.advancedSinceCommit()) {
                p.committed = p.nextToProcess;
                deadLetters.committed(p.tp, p.committed);
            }
        }
    }

    /** Hands over, per input partition, the records taken and committed since the last call. */
    void drainCommittedCounts(ObjLongConsumer<TopicPartition> to) {
        for (PartitionState p : inputs.states()) {
            if (p.committedTaken > 0) {
                to.accept(p.tp, p.committedTaken);
                p.committedTaken = 0;
            }
        }
    }
}
