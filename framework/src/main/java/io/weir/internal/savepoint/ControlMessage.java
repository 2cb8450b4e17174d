package io.weir.internal.savepoint;

import java.util.List;
import java.util.Map;

/**
 * What goes through an application's control topic ({@code <application.id>-control}, see
 * {@link SavepointTopics}): a savepoint's request and its progress, one JSON record each, keyed by
 * the savepoint id. Every instance reads the topic and folds the messages of a savepoint into a
 * {@link SavepointCut}; the command-line tool writes the request and waits for the tasks.
 *
 * <p>A savepoint's life: {@link Request} → a {@link Paused} per task (the consistent cut: every
 * task stopped at a commit, and no record in flight in a repartition topic) → a {@link Done} per
 * task (its stores copied into the savepoint topic) → the tool writes the manifest and
 * {@link Completed}; or, at any point, {@link Aborted}, after which nothing of it is used.
 */
public sealed interface ControlMessage {

    /** The savepoint this message belongs to. */
    String id();

    /**
     * Take a savepoint.
     *
     * @param stop        stop the application once the savepoint is written (no processing after the cut)
     * @param timeoutMs   instances give up (and resume) if the cut is not complete this long after they saw it
     * @param requestedAt wall-clock time of the request, epoch ms
     */
    record Request(String id, boolean stop, long timeoutMs, long requestedAt) implements ControlMessage {}

    /**
     * A task stopped at a commit for the cut.
     *
     * @param taskCount how many tasks the application has (all sub-topologies): the cut is
     *                  complete when that many tasks paused
     * @param offsets   the task's committed input offsets at the cut, by {@code topic-partition}
     */
    record Paused(String id, String task, String instance, int taskCount, Map<String, Offset> offsets)
            implements ControlMessage {}

    /** A task's stores are in the savepoint topic. */
    record Done(String id, String task, String instance, Map<String, Offset> offsets, List<StoreCopy> stores)
            implements ControlMessage {}

    /** The savepoint failed and will never complete; paused tasks resume. */
    record Aborted(String id, String reason) implements ControlMessage {}

    /** The manifest is written: the savepoint is complete. */
    record Completed(String id) implements ControlMessage {}

    /** A committed input offset and its metadata (which carries the task's watermark). */
    record Offset(long offset, String metadata) {}

    /**
     * One store of a task, as copied into the savepoint topic.
     *
     * @param kind       key_value, window or session
     * @param keySerde   the key serde's format id (its class name)
     * @param valueSerde the value serde's format id
     * @param records    entries copied
     * @param bytes      key and value bytes copied
     * @param crc32      CRC-32 of every entry's key and value, in key order (see {@link Chunks})
     * @param chunks     data records written for it
     * @param firstOffset offset of its first data record in the savepoint topic
     * @param lastOffset  offset of its last data record
     */
    record StoreCopy(
            String name,
            String kind,
            String keySerde,
            String valueSerde,
            long records,
            long bytes,
            long crc32,
            int chunks,
            long firstOffset,
            long lastOffset) {}
}
