package io.weir.internal.task;

import io.weir.internal.time.PartitionTime;
import io.weir.internal.time.UpstreamWatermarks;
import io.weir.internal.time.WatermarkMarker;
import java.util.ArrayDeque;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.TopicPartition;

/**
 * One input partition of a task: records fetched but not yet processed, and the offsets the
 * commit and a rewind need.
 */
final class PartitionState {

    final TopicPartition tp;
    final SourceNode source;
    final ArrayDeque<ConsumerRecord<byte[], byte[]>> buffer = new ArrayDeque<>();
    /** Offset after the last processed record, or -1 if none was processed since assignment. */
    long nextToProcess = -1;
    /** The offset committed last by this task, or -1 before its first commit. */
    long committed = -1;
    /** Offset of the first record fetched since assignment: where a rewind goes before any commit. */
    long firstFetched = -1;

    boolean paused;
    /** The partition's time for the task's watermark. */
    final PartitionTime time;
    /** For a repartition partition, what its writing tasks announced ({@code time.upstream}); else null. */
    final UpstreamWatermarks upstream;
    /** Records taken from this partition since the last commit, and committed ones not yet counted (bounded runs). */
    long takenSinceCommit;

    long committedTaken;
    /** False until the committed offset and time of the partition were read after assignment. */
    boolean resumed;
    /** The head of the buffer, read by {@link #headTimestamp}; null if not read (yet). */
    private io.weir.processor.Record<Object, Object> head;

    private boolean headUnreadable;
    private boolean headMarker;

    PartitionState(TopicPartition tp, SourceNode source) {
        this.tp = tp;
        this.source = source;
        this.time = new PartitionTime(source.eventTime, source.repartitioned, buffer);
        this.upstream = time.upstream;
    }

    boolean advancedSinceCommit() {
        return nextToProcess >= 0 && nextToProcess != committed;
    }

    /** Where processing must restart after an abort, or -1 if the consumer's position is right. */
    long rewindOffset() {
        return committed >= 0 ? committed : firstFetched;
    }

    /**
     * The time of the next record as its source times it (its extractor, not only the Kafka
     * timestamp), so a task takes records of several partitions in event-time order. The record is
     * read once: {@link #takeHead} hands the read record to processing. A record that cannot be
     * read is ordered by its Kafka timestamp and fails when processed. A watermark marker comes
     * first: it is cheap, and it can only let the watermark move.
     */
    long headTimestamp() {
        ConsumerRecord<byte[], byte[]> raw = buffer.peekFirst();
        if (raw == null) {
            return Long.MAX_VALUE;
        }
        if (headMarker) {
            return Long.MIN_VALUE;
        }
        if (head == null && !headUnreadable) {
            if (upstream != null && WatermarkMarker.from(raw) != null) {
                headMarker = true;
                return Long.MIN_VALUE;
            }
            try {
                head = source.read(raw);
            } catch (RuntimeException e) {
                headUnreadable = true;
            }
        }
        return head != null ? head.timestamp() : raw.timestamp();
    }

    /** The read form of the record just taken from the buffer, if {@link #headTimestamp} read it. */
    io.weir.processor.Record<Object, Object> takeHead() {
        io.weir.processor.Record<Object, Object> r = head;
        head = null;
        headUnreadable = false;
        headMarker = false;
        return r;
    }

    /** The buffer was dropped (abort): forget what was read of its head. */
    void clearBuffer() {
        buffer.clear();
        head = null;
        headUnreadable = false;
        headMarker = false;
    }
}
