package io.weir.internal.runtime;

import io.weir.processor.TaskId;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.DoubleSupplier;

/**
 * What one stream thread publishes about its progress, for the instance's state, its health
 * endpoints and its stall detection.
 *
 * <p>Threading, in the manner of a single-writer snapshot: only the stream thread writes (every
 * field is volatile or a concurrent map and holds an immutable value), any thread reads. A reader
 * sees each field's latest value, not a consistent set of them, which is all a probe needs.
 */
final class ThreadHealth {

    /** Where a thread is in its life, from its own point of view. */
    enum Phase {
        /** Started, waiting for its first assignment. */
        STARTING,
        /** Gave partitions up (revoked, lost, or rejoining after a fence) and waits for its new assignment. */
        REBALANCING,
        /** Holds an assignment; some of its tasks restore stores. */
        RESTORING,
        /** Holds an assignment; every task processes. */
        RUNNING,
        /** Ended, normally or not. */
        STOPPED
    }

    /** One store under restore: {@code restored} records so far, {@code remaining} changelog offsets left. */
    record Restore(TaskId task, String store, String changelog, long restored, long remaining) {
    }

    private final String threadName;
    private volatile Phase phase = Phase.STARTING;
    private volatile List<TaskId> tasks = List.of();
    private volatile long lastLoopNanos = System.nanoTime();
    private volatile long lastCommitNanos = System.nanoTime();
    private volatile String commitFailure;
    private volatile long commitFailingSinceNanos;
    private volatile DoubleSupplier heartbeatAgeSeconds = () -> Double.NaN;
    private final Map<String, Restore> restores = new ConcurrentHashMap<>();

    ThreadHealth(String threadName) {
        this.threadName = threadName;
    }

    String threadName() {
        return threadName;
    }

    // ---- written by the stream thread ---------------------------------------------------------

    void phase(Phase next) {
        if (phase != next) { // called every turn of the loop: no volatile write when nothing changed
            phase = next;
        }
    }

    void tasks(Set<TaskId> active) {
        tasks = List.copyOf(new TreeSet<>(active));
    }

    /** The thread finished a turn of its loop: it is not stuck in a call. */
    void loopTurned() {
        lastLoopNanos = System.nanoTime();
    }

    /** A commit succeeded, or found nothing to commit: the thread owes Kafka nothing older. */
    void commitSucceeded() {
        lastCommitNanos = System.nanoTime();
        if (commitFailure != null) {
            commitFailure = null;
            commitFailingSinceNanos = 0;
        }
    }

    /** A transaction was aborted or a commit abandoned; a later success clears it. */
    void commitFailed(String reason) {
        if (commitFailure == null) {
            commitFailingSinceNanos = System.nanoTime();
        }
        commitFailure = reason;
    }

    /** Reads the consumer's seconds since its last heartbeat answer; the supplier must be thread-safe. */
    void heartbeatAge(DoubleSupplier seconds) {
        heartbeatAgeSeconds = seconds;
    }

    void restoring(String changelog, Restore restore) {
        restores.put(changelog, restore);
    }

    void restored(String changelog) {
        restores.remove(changelog);
    }

    // ---- read by any thread -------------------------------------------------------------------

    Phase phase() {
        return phase;
    }

    List<TaskId> tasks() {
        return tasks;
    }

    long lastLoopNanos() {
        return lastLoopNanos;
    }

    long lastCommitNanos() {
        return lastCommitNanos;
    }

    /** Why commits fail, or null while they succeed. */
    String commitFailure() {
        return commitFailure;
    }

    long commitFailingSinceNanos() {
        return commitFailingSinceNanos;
    }

    /** Seconds since the group coordinator last answered a heartbeat; NaN when unknown. */
    double heartbeatAgeSeconds() {
        return heartbeatAgeSeconds.getAsDouble();
    }

    List<Restore> restores() {
        return List.copyOf(restores.values());
    }
}
