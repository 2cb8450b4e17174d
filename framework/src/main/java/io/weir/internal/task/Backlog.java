package io.weir.internal.task;

import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;

/**
 * How far behind its inputs an instance is: the records its tasks have still to process (buffered,
 * or on the brokers as each consumer last saw them), each thread reporting its own tasks' at every
 * turn of its loop. The interval trigger of early results reads it
 * ({@code early.results.max.lag.records}).
 *
 * <p>Why the instance's backlog and not the task's own: early results take the same cores as the
 * tasks that are behind, whichever task that is. A window task downstream of a repartition topic
 * is never behind its own input when the task feeding it is the one that cannot keep up: both run
 * in this process, so the window's early results would still take the time the feeding task lacks.
 *
 * <p>Threads: any thread reports and reads.
 */
public final class Backlog {

    private final ConcurrentMap<String, Long> byThread = new ConcurrentHashMap<>();

    /** The records the tasks of {@code thread} have still to process, as of now. */
    public void report(String thread, long records) {
        byThread.put(thread, Math.max(0, records));
    }

    /** {@code thread} runs no more tasks. */
    public void remove(String thread) {
        byThread.remove(thread);
    }

    /** The records every thread of the instance last reported, together. */
    public long total() {
        long total = 0;
        for (long records : byThread.values()) {
            total += records;
        }
        return total;
    }
}
