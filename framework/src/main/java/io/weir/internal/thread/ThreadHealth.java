package io.weir.internal.thread;

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
public final class ThreadHealth {

    /** Where a thread is in its life, from its own point of view. */
    public enum Phase {
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
    public record Restore(TaskId task, String store, String changelog, long restored, long remaining) {}

    private final String threadName;
    private volatile Phase phase = Phase.STARTING;
    private volatile List<TaskId> tasks = List.of();
    private volatile long lastLoopNanos = System.nanoTime();
    private volatile long lastCommitNanos = System.nanoTime();
    private volatile String commitFailure;
    private volatile long commitFailingSinceNanos;
    private volatile DoubleSupplier heartbeatAgeSeconds = () -> Double.NaN;
    /** The asynchronous step waiting longest with no call finished, or null. */
    private volatile AsyncWait asyncWait;

    /**
     * An asynchronous step with calls in flight of which none finished since {@code sinceNanos}.
     *
     * @param step     the step's name
     * @param task     the task it waits in
     * @param inFlight its calls in flight then
     * @param full     true if it is at its in-flight bound (the task takes no records)
     */
    public record AsyncWait(String step, TaskId task, int inFlight, boolean full, long sinceNanos) {}

    private final Map<String, Restore> restores = new ConcurrentHashMap<>();

    public ThreadHealth(String threadName) {
        this.threadName = threadName;
    }

    public String threadName() {
        return threadName;
    }

    // ---- written by the stream thread ---------------------------------------------------------

    public void phase(Phase next) {
        if (phase != next) { // called every turn of the loop: no volatile write when nothing changed
            phase = next;
        }
    }

    public void tasks(Set<TaskId> active) {
        tasks = List.copyOf(new TreeSet<>(active));
    }

    /** The thread finished a turn of its loop: it is not stuck in a call. */
    public void loopTurned() {
        lastLoopNanos = System.nanoTime();
    }

    /** A commit succeeded, or found nothing to commit: the thread owes Kafka nothing older. */
    public void commitSucceeded() {
        lastCommitNanos = System.nanoTime();
        if (commitFailure != null) {
            commitFailure = null;
            commitFailingSinceNanos = 0;
        }
    }

    /** A transaction was aborted or a commit abandoned; a later success clears it. */
    public void commitFailed(String reason) {
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

    /** The step waiting longest for its calls (see {@link AsyncWait}), or null: set by the stream thread. */
    public void asyncWait(AsyncWait wait) {
        if (wait != asyncWait) {
            asyncWait = wait;
        }
    }

    public AsyncWait asyncWait() {
        return asyncWait;
    }

    public Phase phase() {
        return phase;
    }

    public List<TaskId> tasks() {
        return tasks;
    }

    public long lastLoopNanos() {
        return lastLoopNanos;
    }

    long lastCommitNanos() {
        return lastCommitNanos;
    }

    /** Why commits fail, or null while they succeed. */
    public String commitFailure() {
        return commitFailure;
    }

    public long commitFailingSinceNanos() {
        return commitFailingSinceNanos;
    }

    /** Seconds since the group coordinator last answered a heartbeat; NaN when unknown. */
    public double heartbeatAgeSeconds() {
        return heartbeatAgeSeconds.getAsDouble();
    }

    public List<Restore> restores() {
        return List.copyOf(restores.values());
    }
}
