package io.weir.internal.runtime;

import io.weir.WeirApp;
import io.weir.internal.ops.HealthReport;
import io.weir.internal.ops.Problem;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;

/**
 * Watches an instance's stream threads from outside them: derives the instance's state from what
 * they publish ({@link ThreadHealth}), runs the {@link StallWatch}, and answers the liveness and
 * readiness probes.
 *
 * <p>Threading: one daemon thread ({@code <application>-monitor}) ticks every {@link #TICK}; one more
 * ({@code <application>-diagnosis}) asks the cluster when a stall begins. The report methods may be
 * called from any thread; they read snapshots and never wait for a stream thread.
 */
public final class InstanceMonitor implements AutoCloseable {

    static final Duration TICK = Duration.ofMillis(250);

    private final List<StreamThread> streamThreads;
    private final List<Thread> threads;
    private final StallWatch stallWatch;
    private final ScheduledExecutorService ticker;
    private final ExecutorService diagnosis;
    private final Runnable onTick;

    /**
     * @param streamThreads the instance's threads, and the JVM threads running them (same order)
     * @param admin         the instance's admin client, for the diagnosis of stalls
     * @param onTick        called on the monitor thread after each tick (the instance updates its state)
     */
    public InstanceMonitor(ThreadContext ctx, List<StreamThread> streamThreads, List<Thread> threads, Admin admin,
                           Runnable onTick) {
        this.streamThreads = List.copyOf(streamThreads);
        this.threads = List.copyOf(threads);
        this.onTick = onTick;
        String app = ctx.config().applicationId();
        this.diagnosis = Executors.newSingleThreadExecutor(daemon(app + "-diagnosis"));
        ClusterDiagnosis cluster = new ClusterDiagnosis(admin, ctx.config(), ctx.model());
        this.stallWatch = new StallWatch(app, ctx.config().stallWarn().toNanos(), cluster::diagnose, diagnosis);
        this.ticker = Executors.newSingleThreadScheduledExecutor(daemon(app + "-monitor"));
    }

    public void start() {
        ticker.scheduleWithFixedDelay(this::tick, 0, TICK.toMillis(), TimeUnit.MILLISECONDS);
    }

    private void tick() {
        // An exception would cancel the schedule and blind the probes for good: log it, tick on.
        try {
            stallWatch.check(healths(), System.nanoTime());
            onTick.run();
        } catch (RuntimeException e) {
            org.slf4j.LoggerFactory.getLogger(InstanceMonitor.class).warn("monitor tick failed", e);
        }
    }

    /** What the threads imply while the instance runs: STARTING, REBALANCING, RESTORING or RUNNING. */
    public WeirApp.State threadsState() {
        WeirApp.State result = WeirApp.State.RUNNING;
        for (ThreadHealth h : healths()) {
            WeirApp.State s = switch (h.phase()) {
                case STARTING -> WeirApp.State.STARTING;
                case REBALANCING -> WeirApp.State.REBALANCING;
                case RESTORING -> WeirApp.State.RESTORING;
                case RUNNING, STOPPED -> WeirApp.State.RUNNING;
            };
            if (s.ordinal() < result.ordinal()) {
                result = s;
            }
        }
        return result;
    }

    /** Live unless the instance failed or one of its threads died while it should run. */
    public HealthReport liveness(WeirApp.State state, Throwable failure) {
        List<Problem> problems = new ArrayList<>();
        if (failure != null) {
            problems.add(new Problem("failed", "the instance stopped after a fatal error: " + failure,
                    Map.of("error", String.valueOf(failure))));
        }
        if (state != WeirApp.State.STOPPING && state != WeirApp.State.STOPPED && state != WeirApp.State.CREATED) {
            for (int i = 0; i < threads.size(); i++) {
                if (!threads.get(i).isAlive() && failure == null) {
                    problems.add(new Problem("thread_dead", "stream thread " + streamThreads.get(i).name()
                            + " is not running", Map.of("thread", streamThreads.get(i).name())));
                }
            }
        }
        return new HealthReport(problems.isEmpty(), state.name(), problems);
    }

    /** Ready when running with an assignment, every task restored, and no stall. */
    public HealthReport readiness(WeirApp.State state, Throwable failure) {
        List<Problem> problems = new ArrayList<>();
        switch (state) {
            case FAILED -> problems.add(Problem.of("failed", "the instance stopped after a fatal error: " + failure));
            case CREATED -> problems.add(Problem.of("starting", "the instance has not been started"));
            case STOPPING, STOPPED -> problems.add(Problem.of("stopping", "the instance is " + state.name().toLowerCase()));
            default -> threadProblems(problems);
        }
        StallWatch.Stall stall = stallWatch.current();
        if (stall != null && state != WeirApp.State.STOPPED) {
            problems.add(new Problem("stalled", "cannot make progress: " + stall.cause(), Map.of(
                    "cause", stall.cause(), "tasks", stall.tasks(), "seconds", stall.seconds(System.nanoTime()))));
        }
        // The state moves on the monitor's tick; until then it may still say what the threads left behind.
        if (problems.isEmpty() && state != WeirApp.State.RUNNING) {
            problems.add(Problem.of(state.name().toLowerCase(java.util.Locale.ROOT), "the instance is " + state));
        }
        return new HealthReport(problems.isEmpty(), state.name(), problems);
    }

    private void threadProblems(List<Problem> problems) {
        for (StreamThread st : streamThreads) {
            ThreadHealth h = st.health();
            switch (h.phase()) {
                case STARTING -> problems.add(new Problem("no_assignment", st.name()
                        + " has not received its assignment from the consumer group yet", Map.of("thread", st.name())));
                case REBALANCING -> problems.add(new Problem("rebalancing", st.name()
                        + " gave up partitions and waits for its new assignment", Map.of("thread", st.name())));
                default -> {
                    // restores are listed below
                }
            }
            List<ThreadHealth.Restore> restores = h.restores();
            if (h.phase() == ThreadHealth.Phase.RESTORING && restores.isEmpty()) {
                problems.add(new Problem("restoring", st.name() + " restores stores (looking up their changelogs)",
                        Map.of("thread", st.name())));
            }
            for (ThreadHealth.Restore r : restores) {
                problems.add(new Problem("restoring", "task " + r.task() + " restores store " + r.store() + " from "
                        + r.changelog(), Map.of("thread", st.name(), "task", r.task().toString(), "store", r.store(),
                        "changelog", r.changelog(), "restored", r.restored(), "remaining", r.remaining())));
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
            result.put(st.name(), st.health().tasks().stream().map(Object::toString).toList());
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
        ticker.shutdownNow();
        diagnosis.shutdownNow();
        try {
            ticker.awaitTermination(1, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
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
