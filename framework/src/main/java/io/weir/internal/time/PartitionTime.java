package io.weir.internal.time;

import java.util.Collection;

/**
 * The time of one input partition of a task, as {@link Watermarks} reads it: the largest record
 * time it delivered (and the committed one), when it last delivered, and for a repartition
 * partition what its writing tasks announced. Held by the task's {@code PartitionState}, which
 * keeps the partition's records and offsets.
 *
 * <p>Owned by the task's thread; not thread-safe.
 */
public final class PartitionTime {

    /** False for a partition whose source has no event time: it does not count for the watermark. */
    final boolean eventTime;
    /**
     * For a repartition partition, what its writing tasks announced: its time for the watermark
     * (instead of {@link #maxTimestamp}); null for any other partition.
     */
    public final UpstreamWatermarks upstream;
    /** The partition's records fetched but not yet processed: an idle partition has none. */
    private final Collection<?> buffer;
    /** Largest record time this partition delivered; MIN_VALUE before any. */
    long maxTimestamp = Long.MIN_VALUE;

    long committedMaxTimestamp = Long.MIN_VALUE;
    /** Wall-clock time this partition last delivered records or was (re)started; for idleness. */
    private long lastActiveMs;

    /**
     * @param repartitioned true for a repartition topic whose partitions carry their writers' watermarks
     * @param buffer the partition's buffered records, read for idleness
     */
    public PartitionTime(boolean eventTime, boolean repartitioned, Collection<?> buffer) {
        this.eventTime = eventTime;
        this.upstream = repartitioned ? new UpstreamWatermarks() : null;
        this.buffer = buffer;
    }

    /** The partition delivered records, or was (re)started, at wall-clock {@code nowMs}. */
    public void activeAt(long nowMs) {
        lastActiveMs = nowMs;
    }

    /** When the partition last delivered records or was (re)started. */
    public long lastActiveMs() {
        return lastActiveMs;
    }

    boolean idle(long now, long idleTimeoutMs) {
        return buffer.isEmpty() && now - lastActiveMs >= idleTimeoutMs;
    }
}
