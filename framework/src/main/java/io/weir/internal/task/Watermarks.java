package io.weir.internal.task;

/**
 * The event-time clock of one task. Each input partition remembers the largest timestamp it has
 * delivered; the task's watermark is the smallest of those over the partitions that are not idle,
 * minus the allowed out-of-orderness ({@code max.out.of.orderness.ms}). A partition whose buffer
 * is empty and that delivered nothing for {@code idle.timeout.ms} of wall-clock time is idle: it
 * stops holding the watermark back until it delivers again. When every partition is idle, nothing
 * holds it back and it follows the largest timestamp seen.
 *
 * <p>Guarantees: the watermark never moves backwards, except to its committed value when the
 * task's uncommitted work is aborted (the replay moves it forward again over the same records).
 * Under exactly-once it is committed with the task, in the offset metadata of its input
 * partitions, in the same transaction as the outputs it caused, so a restarted task resumes from
 * exactly the watermark whose consequences (closed windows, fired timers) are committed: nothing
 * fires twice, nothing is skipped. Under at-least-once it is committed with the offsets after the
 * outputs, so a restart may fire again what fired after the last commit (at least once). Under
 * at-most-once and none the offsets are committed without it (positions after each poll, or
 * the consumer's auto-commit), so a restarted task starts with no watermark.
 *
 * <p>Owned by the task's thread; not thread-safe.
 */
final class Watermarks {

    /** Prefix of the offset metadata Weir writes; anything else there is ignored. */
    private static final String METADATA_PREFIX = "weir1:";

    private final long outOfOrderness;
    private final long idleTimeoutMs;
    private PartitionState[] partitions = new PartitionState[0];
    private long watermark = Long.MIN_VALUE;
    private long committedWatermark = Long.MIN_VALUE;

    Watermarks(long outOfOrdernessMs, long idleTimeoutMs) {
        this.outOfOrderness = outOfOrdernessMs;
        this.idleTimeoutMs = idleTimeoutMs;
    }

    void setPartitions(PartitionState[] partitions) {
        this.partitions = partitions;
    }

    long current() {
        return watermark;
    }

    /** True if the watermark moved since the last commit (its metadata must be committed). */
    boolean changedSinceCommit() {
        return watermark != committedWatermark;
    }

    /**
     * A record with time {@code timestamp} is about to be processed from {@code p}.
     *
     * @return true if it is the partition's new largest time (only then can the watermark move)
     */
    boolean observe(PartitionState p, long timestamp) {
        if (timestamp > p.maxTimestamp) {
            p.maxTimestamp = timestamp;
            return true;
        }
        return false;
    }

    /**
     * Recomputes the watermark from the partitions' times and idleness at wall-clock {@code now}.
     *
     * @return true if it advanced
     */
    boolean advance(long now) {
        if (partitions.length == 1) {
            // Alone, a partition holds nothing back but itself, idle or not.
            return raiseTo(partitions[0].maxTimestamp);
        }
        long min = Long.MAX_VALUE;
        long max = Long.MIN_VALUE;
        boolean anyActive = false;
        for (PartitionState p : partitions) {
            max = Math.max(max, p.maxTimestamp);
            if (!isIdle(p, now)) {
                anyActive = true;
                min = Math.min(min, p.maxTimestamp);
            }
        }
        return raiseTo(anyActive ? min : max);
    }

    /**
     * A bounded run's input ended: event time jumps to {@code end} (the end of time, or
     * {@code bounded.until}), whatever the partitions' times, so every window and timer up to it
     * fires. Committed like any advance, so the same windows never fire again.
     *
     * @return true if it advanced
     */
    boolean finishAt(long end) {
        if (end > watermark) {
            watermark = end;
            return true;
        }
        return false;
    }

    private boolean raiseTo(long basis) {
        if (basis == Long.MIN_VALUE) {
            return false;
        }
        long candidate = basis - outOfOrderness;
        if (candidate > watermark) {
            watermark = candidate;
            return true;
        }
        return false;
    }

    private boolean isIdle(PartitionState p, long now) {
        return p.buffer.isEmpty() && now - p.lastActiveMs >= idleTimeoutMs;
    }

    /** The transaction committed: this is now the watermark a restart resumes from. */
    void committed() {
        committedWatermark = watermark;
        for (PartitionState p : partitions) {
            p.committedMaxTimestamp = p.maxTimestamp;
        }
    }

    /** The uncommitted work was aborted: back to the committed times. */
    void aborted() {
        watermark = committedWatermark;
        for (PartitionState p : partitions) {
            p.maxTimestamp = p.committedMaxTimestamp;
        }
    }

    /** The offset metadata that records the task's watermark and this partition's largest time. */
    String metadata(PartitionState p) {
        return METADATA_PREFIX + watermark + ":" + p.maxTimestamp;
    }

    /**
     * Resumes from committed offset metadata (null or foreign metadata is ignored). Called for
     * each input partition when the task starts; the task's watermark is the largest any
     * partition recorded, since every commit writes the current one to the partitions it covers.
     */
    void resume(PartitionState p, String metadata) {
        if (metadata == null || !metadata.startsWith(METADATA_PREFIX)) {
            return;
        }
        String[] parts = metadata.substring(METADATA_PREFIX.length()).split(":");
        if (parts.length != 2) {
            return;
        }
        try {
            long wm = Long.parseLong(parts[0]);
            long max = Long.parseLong(parts[1]);
            p.maxTimestamp = Math.max(p.maxTimestamp, max);
            p.committedMaxTimestamp = p.maxTimestamp;
            watermark = Math.max(watermark, wm);
            committedWatermark = watermark;
        } catch (NumberFormatException e) {
            // Not ours after all: start from no time, as for a new group.
        }
    }
}
