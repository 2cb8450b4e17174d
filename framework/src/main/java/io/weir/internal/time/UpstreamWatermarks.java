package io.weir.internal.time;

import java.util.Arrays;
import java.util.TreeMap;

/**
 * The event time of one repartition partition, as the tasks writing to it announced it
 * ({@link WatermarkMarker}s): the smallest watermark over the writing tasks that are not idle
 * (Flink's rule for a channel fed by several producers). Until every writing task has been heard
 * from, the partition holds its reader's watermark where it was; when every writing task is idle,
 * the partition is idle too and its time is the largest they announced.
 *
 * <p>Why not the times of the repartitioned records: they arrive interleaved from all writing
 * tasks, so the fastest one would drive the reader's watermark and the records of the slower ones
 * would count as late although they were not late where they came from.
 *
 * <p>The partition's time never moves backwards. It is committed with the reader's offsets
 * ({@link Watermarks#metadata}); a reader that resumes from it waits to hear from every writing
 * task again (they announce at least every second, {@link WatermarkBroadcast}) before moving past
 * it. Like {@link Watermarks}, an abort takes it back to the committed state.
 *
 * <p>Owned by the task's thread; not thread-safe.
 */
public final class UpstreamWatermarks {

    /** What one writing sub-topology's tasks announced, indexed by task. */
    private static final class Writers {
        long[] watermarks;
        boolean[] idle;
        boolean[] heard;

        Writers(int tasks) {
            watermarks = new long[tasks];
            Arrays.fill(watermarks, Long.MIN_VALUE);
            idle = new boolean[tasks];
            heard = new boolean[tasks];
        }

        Writers copy() {
            Writers c = new Writers(0);
            c.watermarks = watermarks.clone();
            c.idle = idle.clone();
            c.heard = heard.clone();
            return c;
        }

        void growTo(int tasks) {
            if (tasks <= watermarks.length) {
                return;
            }
            int old = watermarks.length;
            watermarks = Arrays.copyOf(watermarks, tasks);
            Arrays.fill(watermarks, old, tasks, Long.MIN_VALUE);
            idle = Arrays.copyOf(idle, tasks);
            heard = Arrays.copyOf(heard, tasks);
        }
    }

    private TreeMap<Integer, Writers> writers = new TreeMap<>();
    private TreeMap<Integer, Writers> committedWriters = new TreeMap<>();
    private long time = Long.MIN_VALUE;
    private long committedTime = Long.MIN_VALUE;
    private boolean idle;
    /** Some writing task has not been heard from (or none has): the partition's time holds. */
    private boolean awaiting = true;
    /** A marker was taken in since the last commit or abort. */
    private boolean changed;

    /** Takes in a marker read from the partition, in the partition's order. */
    public void observe(WatermarkMarker m) {
        Writers w = writers.computeIfAbsent(m.subtopology(), k -> new Writers(m.tasks()));
        w.growTo(m.tasks());
        w.watermarks[m.task()] = Math.max(w.watermarks[m.task()], m.watermark());
        w.idle[m.task()] = m.idle();
        w.heard[m.task()] = true;
        changed = true;
        recompute();
    }

    /** The partition's time: what its reader's watermark may not pass; MIN_VALUE before it has one. */
    long watermark() {
        return time;
    }

    /** True until every task writing to the partition has been heard from. */
    public boolean awaitingWriters() {
        return awaiting;
    }

    /** True if every task writing to the partition said it is idle. */
    boolean idle() {
        return idle;
    }

    private void recompute() {
        long min = Long.MAX_VALUE;
        long max = Long.MIN_VALUE;
        boolean anyActive = false;
        for (Writers w : writers.values()) {
            for (int t = 0; t < w.heard.length; t++) {
                if (!w.heard[t]) {
                    idle = false;
                    awaiting = true;
                    return; // a writer not heard from yet may still send anything: hold
                }
                max = Math.max(max, w.watermarks[t]);
                if (!w.idle[t]) {
                    anyActive = true;
                    min = Math.min(min, w.watermarks[t]);
                }
            }
        }
        awaiting = writers.isEmpty();
        idle = !awaiting && !anyActive;
        long computed = anyActive ? min : max;
        time = Math.max(time, computed);
    }

    /** Resumes from the time committed last (see {@link Watermarks#resume}). */
    void resume(long committed) {
        time = Math.max(time, committed);
        committedTime = time;
    }

    void committed() {
        committedTime = time;
        if (changed) {
            committedWriters = deepCopy(writers);
            changed = false;
        }
    }

    void aborted() {
        time = committedTime;
        if (changed) {
            writers = deepCopy(committedWriters);
            changed = false;
            recompute(); // idleness and waiting as committed; the time cannot pass the committed one
        }
    }

    private static TreeMap<Integer, Writers> deepCopy(TreeMap<Integer, Writers> from) {
        TreeMap<Integer, Writers> copy = new TreeMap<>();
        from.forEach((k, v) -> copy.put(k, v.copy()));
        return copy;
    }
}
