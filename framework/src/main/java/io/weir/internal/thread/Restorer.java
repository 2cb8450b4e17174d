package io.weir.internal.thread;

import io.weir.internal.task.ActiveTask;

/**
 * How a {@link TaskManager} brings the logged stores of its new tasks up to date before they
 * process anything. A stream thread hands the restores to the instance's state thread
 * ({@link StateThreadRestorer}); the test driver restores synchronously from its in-memory changelog
 * topics ({@code DriverRestorer}). Either way a registered task with logged stores stays paused
 * ({@link ActiveTask#startRestoring}) until {@link #finishRestored} finds its stores restored and lets
 * it process ({@link ActiveTask#finishRestoring}).
 *
 * <p>Threading: called by the thread that owns the task manager, rebalance callbacks included.
 */
public interface Restorer extends AutoCloseable {

    /** A new task: if it has logged stores, its input is paused and their restore starts. */
    void register(ActiveTask task);

    /** The task is closing: its restore stops, and its stores are not written once this returns. */
    void unregister(ActiveTask task);

    /**
     * The changelog records {@code task} has still to restore, or -1 while that is not known;
     * any thread may ask (queries that accept a lag read a restoring task within it).
     */
    default long remaining(ActiveTask task) {
        return -1;
    }

    /** True while a registered task has not finished restoring. */
    boolean hasPending();

    /**
     * Lets every task whose stores are all restored process.
     *
     * @throws RuntimeException what failed a restore (the owner then stops, as for any failure)
     */
    void finishRestored();

    /** Stops the restores under way (the owner is closing its tasks). */
    @Override
    void close();
}
