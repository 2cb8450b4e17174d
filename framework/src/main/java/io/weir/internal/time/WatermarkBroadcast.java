package io.weir.internal.time;

import io.weir.processor.TaskId;
import java.util.List;

/**
 * Announces a task's watermark to the tasks downstream of its repartition topics: a
 * {@link WatermarkMarker} into every partition of every repartition topic the task writes to, at
 * a commit, when the watermark or the task's idleness changed since the last announcement, and at
 * least every {@link #HEARTBEAT_MS} ms, so that a reader that restarted, or took over a partition,
 * hears from every writer soon.
 *
 * <p>Markers go through the task's transaction with its outputs: under exactly-once a reader sees
 * a marker exactly when it sees the records written before it, and an aborted announcement is
 * made again by the next commit. Markers do not count as outputs.
 *
 * <p>Owned by the task's thread; not thread-safe.
 */
public final class WatermarkBroadcast {

    /** The longest a writing task stays silent. */
    static final long HEARTBEAT_MS = 1_000;

    private final TaskId task;
    private final List<String> topics;
    private final MarkerSink collector;
    private long sentWatermark = Long.MIN_VALUE;
    private boolean sentIdle;
    private long sentAtMs = Long.MIN_VALUE;
    private boolean pending;
    private long pendingWatermark;
    private boolean pendingIdle;
    private long pendingAtMs;

    /** @param topics the repartition topics the task writes to (none: it announces nothing) */
    public WatermarkBroadcast(TaskId task, List<String> topics, MarkerSink collector) {
        this.task = task;
        this.topics = List.copyOf(topics);
        this.collector = collector;
    }

    /** Before a commit: announces the watermark if it is news or the heartbeat is due. */
    public void beforeCommit(long watermark, boolean idle, long nowMs) {
        if (topics.isEmpty() || pending) {
            return;
        }
        if (watermark == Long.MIN_VALUE && !idle) {
            return; // nothing to say yet: a writer not heard from holds its readers back all the same
        }
        boolean news = watermark != sentWatermark || idle != sentIdle;
        if (!news && nowMs - sentAtMs < HEARTBEAT_MS) {
            return;
        }
        for (String topic : topics) {
            // A repartition topic has as many partitions as the sub-topology writing it has tasks
            // (more tasks than that if an input topic grew since the topic was made).
            int partitions = collector.partitions(topic);
            int writers = Math.max(partitions, task.partition() + 1);
            byte[] marker =
                    new WatermarkMarker(task.subtopology(), task.partition(), writers, watermark, idle).encode();
            for (int p = 0; p < partitions; p++) {
                collector.sendMarker(topic, p, WatermarkMarker.HEADER, marker);
            }
        }
        pending = true;
        pendingWatermark = watermark;
        pendingIdle = idle;
        pendingAtMs = nowMs;
    }

    /** The commit carried the announcement. */
    public void committed() {
        if (pending) {
            sentWatermark = pendingWatermark;
            sentIdle = pendingIdle;
            sentAtMs = pendingAtMs;
            pending = false;
        }
    }

    /** The announcement was aborted with the transaction: make it again. */
    public void aborted() {
        pending = false;
    }
}
