package io.weir.internal.time;

/**
 * The event-time clock of one task: the smallest time over the input partitions that are not
 * idle. A source partition's time is the largest timestamp it has delivered minus the allowed
 * out-of-orderness ({@code max.out.of.orderness.ms}); it is idle when its buffer is empty and it
 * delivered nothing for {@code idle.timeout.ms} of wall-clock time, and stops holding the
 * watermark back until it delivers again. A repartition partition's time is what the tasks writing
 * to it announced ({@link UpstreamWatermarks}): their own watermarks, already allowing for
 * out-of-orderness; it is idle when all of them are. A repartition partition without event time
 * ({@code NodeSpec.Source#eventTime}) does not count. When every partition is idle, nothing holds
 * the watermark back and it follows the largest of their times.
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
public final class Watermarks {

    /** Prefix of the offset metadata Weir writes; anything else there is ignored. */
    private static final String METADATA_PREFIX = "weir1:";

    private final long outOfOrderness;
    private final long idleTimeoutMs;
    private PartitionTime[] partitions = new PartitionTime[0];
    private long watermark = Long.MIN_VALUE;
    private long committedWatermark = Long.MIN_VALUE;
    /** What holds the watermark back besides the inputs: the oldest record still in flight. */
    private java.util.function.LongSupplier hold;

    public Watermarks(long outOfOrdernessMs, long idleTimeoutMs) {
        this.outOfOrderness = outOfOrdernessMs;
        this.idleTimeoutMs = idleTimeoutMs;
    }

    /**
     * Holds the watermark at most at what {@code hold} says (the smallest timestamp of a record
     * an asynchronous step has in flight; {@code Long.MAX_VALUE} for none): a record completing
     * late is then never behind the watermark its own call held back.
     */
    public void holdAt(java.util.function.LongSupplier hold) {
        this.hold = hold;
    }

    public void setPartitions(PartitionTime[] partitions) {
        this.partitions = partitions;
    }

    public long current() {
        return watermark;
    }

    /** True if the watermark moved since the last commit (its metadata must be committed). */
    public boolean changedSinceCommit() {
        return watermark != committedWatermark;
    }

    /**
     * A record with time {@code timestamp} is about to be processed from {@code p}.
     *
     * @return true if it is the partition's new largest time (only then can the watermark move)
     */
    public boolean observe(PartitionTime p, long timestamp) {
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
    public boolean advance(long now) {
        if (partitions.length == 1) {
            // Alone, a partition holds nothing back but itself, idle or not.
            return partitions[0].eventTime && raiseTo(timeOf(partitions[0]));
        }
        long min = Long.MAX_VALUE;
        long max = Long.MIN_VALUE;
        boolean anyActive = false;
        for (PartitionTime p : partitions) {
            if (!p.eventTime) {
                continue;
            }
            long time = timeOf(p);
            max = Math.max(max, time);
            if (!isIdle(p, now)) {
                anyActive = true;
                min = Math.min(min, time);
            }
        }
        return raiseTo(anyActive ? min : max);
    }

    /** True if every input partition is idle: the task's watermark holds no downstream task back. */
    public boolean idle(long now) {
        for (PartitionTime p : partitions) {
            if (p.eventTime && !isIdle(p, now)) {
                return false;
            }
        }
        return partitions.length > 0;
    }

    /** A partition's time for the watermark; MIN_VALUE while it has none. */
    private long timeOf(PartitionTime p) {
        if (p.upstream != null) {
            return p.upstream.watermark();
        }
        return p.maxTimestamp == Long.MIN_VALUE ? Long.MIN_VALUE : p.maxTimestamp - outOfOrderness;
    }

    /**
     * A bounded run's input ended: event time jumps to {@code end} (the end of time, or
     * {@code bounded.until}), whatever the partitions' times, so every window and timer up to it
     * fires. Committed like any advance, so the same windows never fire again.
     *
     * @return true if it advanced
     */
    public boolean finishAt(long end) {
        if (end > watermark) {
            watermark = end;
            return true;
        }
        return false;
    }

    private boolean raiseTo(long candidate) {
        if (hold != null) {
            candidate = Math.min(candidate, hold.getAsLong());
        }
        if (candidate == Long.MIN_VALUE) {
            return false;
        }
        if (candidate > watermark) {
            watermark = candidate;
            return true;
        }
        return false;
    }

    private boolean isIdle(PartitionTime p, long now) {
        if (p.upstream != null) {
            return p.upstream.idle();
        }
        return p.idle(now, idleTimeoutMs);
    }

    /** The transaction committed: this is now the watermark a restart resumes from. */
    public void committed() {
        committedWatermark = watermark;
        for (PartitionTime p : partitions) {
            p.committedMaxTimestamp = p.maxTimestamp;
            if (p.upstream != null) {
                p.upstream.committed();
            }
        }
    }

    /** The uncommitted work was aborted: back to the committed times. */
    public void aborted() {
        watermark = committedWatermark;
        for (PartitionTime p : partitions) {
            p.maxTimestamp = p.committedMaxTimestamp;
            if (p.upstream != null) {
                p.upstream.aborted();
            }
        }
    }

    /**
     * The offset metadata that records the task's watermark and this partition's largest time,
     * and for a repartition partition the time its writers announced.
     */
    public String metadata(PartitionTime p) {
        String times = METADATA_PREFIX + watermark + ":" + p.maxTimestamp;
        return p.upstream == null ? times : times + ":" + p.upstream.watermark();
    }

    /**
     * Resumes from committed offset metadata (null or foreign metadata is ignored). Called for
     * each input partition when the task starts; the task's watermark is the largest any
     * partition recorded, since every commit writes the current one to the partitions it covers.
     */
    public void resume(PartitionTime p, String metadata) {
        if (metadata == null || !metadata.startsWith(METADATA_PREFIX)) {
            return;
        }
        String[] parts = metadata.substring(METADATA_PREFIX.length()).split(":");
        if (parts.length != 2 && parts.length != 3) {
            return;
        }
        try {
            long wm = Long.parseLong(parts[0]);
            long max = Long.parseLong(parts[1]);
            // Written before repartition partitions had their writers' time: theirs starts anew.
            long upstreamTime = parts.length == 3 ? Long.parseLong(parts[2]) : Long.MIN_VALUE;
            p.maxTimestamp = Math.max(p.maxTimestamp, max);
            p.committedMaxTimestamp = p.maxTimestamp;
            if (p.upstream != null) {
                p.upstream.resume(upstreamTime);
            }
            watermark = Math.max(watermark, wm);
            committedWatermark = watermark;
        } catch (NumberFormatException e) {
            // Not ours after all: start from no time, as for a new group.
        }
    }
}
