package io.weir.internal.supervision;

import io.weir.common.internal.Worker;
import io.weir.internal.cluster.ClusterDiagnosis;
import io.weir.internal.http.Problem;
import io.weir.internal.thread.StreamThread;
import io.weir.internal.thread.ThreadContext;
import io.weir.internal.thread.ThreadHealth;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import org.apache.kafka.clients.admin.Admin;

/**
 * Watches an instance's stream threads from outside them: derives the instance's state from what
 * they publish ({@link ThreadHealth}), runs the {@link StallWatch}, and answers the liveness and
 * readiness probes.
 *
 * <p>Threading: one daemon {@link Worker} ({@code <application>-monitor}) ticks every {@link #TICK}; one more
 * ({@code <application>-diagnosis}) asks the cluster when a stall begins. The report methods may be
 * called from any thread; they read snapshots and never wait for a stream thread.
 */
public final class InstanceMonitor implements AutoCloseable {

    static final Duration TICK = Duration.ofMillis(250);

    private final List<StreamThread> streamThreads;
    private final List<Thread> threads;
    private final StallWatch stallWatch;
    private final String app;
    private Worker ticker;
    private final ExecutorService diagnosis;
    private final Runnable onTick;

    /**
     * @param streamThreads the instance's threads, and the JVM threads running them (same order)
     * @param admin         the instance's admin client, for the diagnosis of stalls
     * @param onTick        called on the monitor thread after each tick (the instance updates its state)
     */
    public InstanceMonitor(
            ThreadContext ctx, List<StreamThread> streamThreads, List<Thread> threads, Admin admin, Runnable onTick) {
        this.streamThreads = List.copyOf(streamThreads);
        this.threads = List.copyOf(threads);
        this.onTick = onTick;
        this.app = ctx.config().applicationId();
        this.diagnosis = Executors.newSingleThreadExecutor(daemon(app + "-diagnosis"));
        ClusterDiagnosis cluster = new ClusterDiagnosis(admin, ctx.config(), ctx.model());
        this.stallWatch = new StallWatch(app, ctx.config().stallWarn().toNanos(), cluster::diagnose, diagnosis);
    }

    public void start() {
        ticker = Worker.named(app + "-monitor")
                .joinTimeout(Duration.ofSeconds(1))
                .every(TICK, self -> tick());
    }

    private void tick() {
        // An exception would end the worker and blind the probes for good: log it, tick on.
        try {
            stallWatch.check(healths(), System.nanoTime());
            onTick.run();
        } catch (RuntimeException e) {
            org.slf4j.LoggerFactory.getLogger(InstanceMonitor.class).warn("monitor tick failed", e);
        }
    }

    /**
     * The least advanced phase of the threads (STARTING, REBALANCING, RESTORING, RUNNING): while the
     * instance runs, it is as far as its least advanced thread. A stopped thread counts as running.
     */
    public ThreadHealth.Phase leastAdvancedPhase() {
        ThreadHealth.Phase result = ThreadHealth.Phase.RUNNING;
        for (ThreadHealth h : healths()) {
            ThreadHealth.Phase p = h.phase() == ThreadHealth.Phase.STOPPED ? ThreadHealth.Phase.RUNNING : h.phase();
            if (p.ordinal() < result.ordinal()) {
                result = p;
            }
        }
        return result;
    }

    /** A problem for each stream thread that is not alive. */
    public List<Problem> deadThreads() {
        List<Problem> problems = new ArrayList<>();
        for (int i = 0; i < threads.size(); i++) {
            if (!threads.get(i).isAlive()) {
                problems.add(new Problem(
                        "thread_dead",
                        "stream thread " + streamThreads.get(i).name() + " is not running",
                        Map.of("thread", streamThreads.get(i).name())));
            }
        }
        return problems;
    }

    /** The current stall as a problem of the readiness probe; empty while the instance makes progress. */
    public Optional<Problem> stall() {
        StallWatch.Stall stall = stallWatch.current();
        return stall == null
                ? Optional.empty()
                : Optional.of(new Problem(
                        "stalled",
                        "cannot make progress: " + stall.cause(),
                        Map.of(
                                "cause",
                                stall.cause(),
                                "tasks",
                                stall.tasks(),
                                "seconds",
                                stall.seconds(System.nanoTime()))));
    }

    /** Why the threads are not ready: a thread without an assignment, rebalancing, or restoring stores. */
    public List<Problem> threadProblems() {
        List<Problem> problems = new ArrayList<>();
        threadProblems(problems);
        return problems;
    }

    private void threadProblems(List<Problem> problems) {
        for (StreamThread st : streamThreads) {
            ThreadHealth h = st.health();
            switch (h.phase()) {
                case STARTING ->
                    problems.add(new Problem(
                            "no_assignment",
                            st.name() + " has not received its assignment from the consumer group yet",
                            Map.of("thread", st.name())));
                case REBALANCING ->
                    problems.add(new Problem(
                            "rebalancing",
                            st.name() + " gave up partitions and waits for its new assignment",
                            Map.of("thread", st.name())));
                default -> {
                    // restores are listed below
                }
            }
            List<ThreadHealth.Restore> restores = h.restores();
            if (h.phase() == ThreadHealth.Phase.RESTORING && restores.isEmpty()) {
                problems.add(new Problem(
                        "restoring",
                        st.name() + " restores stores (looking up their changelogs)",
                        Map.of("thread", st.name())));
            }
            for (ThreadHealth.Restore r : restores) {
                problems.add(new Problem(
                        "restoring",
                        "task " + r.task() + " restores store " + r.store() + " from " + r.changelog(),
                        Map.of(
                                "thread",
                                st.name(),
                                "task",
                                r.task().toString(),
                                "store",
                                r.store(),
                                "changelog",
                                r.changelog(),
                                "restored",
                                r.restored(),
                                "remaining",
                                r.remaining())));
            }
        }
    }

    /** True while a stall lasts. */
    public boolean stalled() {
        return stallWatch.current() != null;
    }

    /** The stores restoring now, as {@code <task>:<store>:<records remaining>}. */
    public List<String> restoreProgress() {
        List<String> result = new ArrayList<>();
        for (StreamThread st : streamThreads) {
            for (ThreadHealth.Restore r : st.health().restores()) {
                result.add(r.task() + ":" + r.store() + ":" + r.remaining());
            }
        }
        return result;
    }

    /** Active task ids per thread name. */
    public Map<String, List<String>> tasksByThread() {
        Map<String, List<String>> result = new LinkedHashMap<>();
        for (StreamThread st : streamThreads) {
            result.put(
                    st.name(),
                    st.health().tasks().stream().map(Object::toString).toList());
        }
        return result;
    }

    private List<ThreadHealth> healths() {
        List<ThreadHealth> result = new ArrayList<>(streamThreads.size());
        for (StreamThread st : streamThreads) {
            result.add(st.health());
        }
        return result;
    }

    @Override
    public void close() {
        if (ticker != null) {
            ticker.stop();
        }
        diagnosis.shutdownNow();
        if (ticker != null) {
            ticker.close();
        }
    }

    private static java.util.concurrent.ThreadFactory daemon(String name) {
        return r -> {
            Thread t = new Thread(r, name);
            t.setDaemon(true);
            return t;
        };
    }
}
