package io.weir.internal.supervision;

import io.weir.internal.cluster.ClusterDiagnosis;
import io.weir.internal.thread.ThreadHealth;
import io.weir.processor.TaskId;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Notices when an instance cannot make progress, says why once, clearly, and says when it is
 * over. Symptoms come from the threads' {@link ThreadHealth}: a thread inside one call for longer
 * than {@code stall.warn.ms} (a send waiting for a deleted topic's metadata, a flush or commit
 * waiting for unreachable brokers), commits failing for that long, or no heartbeat answer from the
 * group coordinator for that long (which also catches an outage while there is nothing to
 * process). The cause is then looked up in the cluster ({@link ClusterDiagnosis}).
 *
 * <p>Logging: one WARN when a stall is confirmed, naming the cause and the affected tasks; the
 * same WARN again at most every {@link #REPEAT_NANOS} while it lasts; one INFO when it is over.
 * Nothing else, however long it lasts: a stall cannot flood the log.
 *
 * <p>Threading: {@link #check} is called by the monitor thread only; {@link #current} from any
 * thread. The diagnosis runs on {@code diagnosisExecutor}, never on the monitor's tick.
 */
final class StallWatch {

    private static final Logger log = LoggerFactory.getLogger(StallWatch.class);
    static final long REPEAT_NANOS = 30_000_000_000L;
    /** How long the first WARN waits for the diagnosis before it names the symptom instead. */
    private static final long DIAGNOSIS_WAIT_NANOS =
            8_000_000_000L; // the diagnosis times out after 3 s; room for a loaded machine

    /**
     * A stall under way.
     *
     * @param cause       what is wrong, in one sentence (the diagnosis, or the symptom until it is known)
     * @param tasks       the tasks of the threads that cannot progress
     * @param sinceNanos  when the first symptom began ({@link System#nanoTime()})
     */
    record Stall(String cause, List<String> tasks, long sinceNanos) {

        long seconds(long now) {
            return (now - sinceNanos) / 1_000_000_000L;
        }
    }

    private final String application;
    private final long thresholdNanos;
    private final Supplier<String> diagnosis;
    private final Executor diagnosisExecutor;

    private volatile Stall current;
    private CompletableFuture<String> pendingDiagnosis;
    private long lastDiagnosisNanos;
    private boolean haveDiagnosis;
    /** The diagnosis of this stall; null when it found nothing wrong in the cluster (or is not back yet). */
    private String diagnosed;

    private long lastWarnNanos;
    private boolean warned;

    StallWatch(String application, long thresholdNanos, Supplier<String> diagnosis, Executor diagnosisExecutor) {
        this.application = application;
        this.thresholdNanos = thresholdNanos;
        this.diagnosis = diagnosis;
        this.diagnosisExecutor = diagnosisExecutor;
    }

    /** The stall under way, or null. */
    Stall current() {
        return current;
    }

    /** Looks at the threads at {@code now} ({@link System#nanoTime()}); logs as described above. */
    void check(List<ThreadHealth> threads, long now) {
        List<String> symptoms = new ArrayList<>();
        Set<String> tasks = new TreeSet<>();
        long since = Long.MAX_VALUE;
        for (ThreadHealth t : threads) {
            if (t.phase() == ThreadHealth.Phase.STOPPED) {
                continue;
            }
            long start = symptomStart(t, now, symptoms);
            if (start != Long.MAX_VALUE) {
                since = Math.min(since, start);
                for (TaskId id : t.tasks()) {
                    tasks.add(id.toString());
                }
            }
        }
        if (symptoms.isEmpty()) {
            recovered(now);
            return;
        }
        // Diagnose at the start and again ahead of each repeated WARN, so the repeat says what is wrong now.
        if (pendingDiagnosis == null
                && (!haveDiagnosis || now - lastDiagnosisNanos >= REPEAT_NANOS - DIAGNOSIS_WAIT_NANOS)) {
            lastDiagnosisNanos = now;
            pendingDiagnosis =
                    CompletableFuture.supplyAsync(diagnosis, diagnosisExecutor).exceptionally(e -> null);
        }
        if (pendingDiagnosis != null && pendingDiagnosis.isDone()) {
            diagnosed = pendingDiagnosis.getNow(null);
            haveDiagnosis = true;
            pendingDiagnosis = null;
        }
        String cause = diagnosed != null ? diagnosed : String.join("; ", symptoms);
        long started = current == null ? since : current.sinceNanos();
        current = new Stall(cause, List.copyOf(tasks), started);
        boolean firstWarnDue = !warned && (haveDiagnosis || now - started >= thresholdNanos + DIAGNOSIS_WAIT_NANOS);
        if (firstWarnDue || (warned && now - lastWarnNanos >= REPEAT_NANOS)) {
            log.warn(
                    "{} cannot make progress: {}; tasks waiting: {} (for {} s{})",
                    application,
                    cause,
                    tasks.isEmpty() ? "none assigned" : String.join(", ", tasks),
                    current.seconds(now),
                    warned ? "" : "; repeated every " + REPEAT_NANOS / 1_000_000_000L + " s while it lasts");
            warned = true;
            lastWarnNanos = now;
        }
    }

    /** When the thread's worst symptom began, adding its description; MAX_VALUE if it has none. */
    private long symptomStart(ThreadHealth t, long now, List<String> symptoms) {
        long start = Long.MAX_VALUE;
        long loop = t.lastLoopNanos();
        if (now - loop > thresholdNanos) {
            symptoms.add(t.threadName() + " has been stuck in one call for " + (now - loop) / 1_000_000_000L
                    + " s (a Kafka call that does not return, or a processor that blocks)");
            start = Math.min(start, loop);
        }
        if (t.commitFailure() != null && now - t.commitFailingSinceNanos() > thresholdNanos) {
            symptoms.add("commits of " + t.threadName() + " keep failing: " + t.commitFailure());
            start = Math.min(start, t.commitFailingSinceNanos());
        }
        double heartbeat = t.heartbeatAgeSeconds();
        if (!Double.isNaN(heartbeat) && heartbeat * 1e9 > thresholdNanos) {
            symptoms.add("the group coordinator has not answered a heartbeat of " + t.threadName() + " for "
                    + (long) heartbeat + " s");
            start = Math.min(start, now - (long) (heartbeat * 1e9));
        }
        ThreadHealth.AsyncWait wait = t.asyncWait();
        if (wait != null && now - wait.sinceNanos() > thresholdNanos) {
            symptoms.add("async step '" + wait.step() + "' of task " + wait.task() + " has had " + wait.inFlight()
                    + " calls in flight" + (wait.full() ? " (its bound: the task takes no records)" : "")
                    + " and none finished for " + (now - wait.sinceNanos()) / 1_000_000_000L
                    + " s: the service it calls is slow or not answering (see weir.async.attempts by outcome)");
            start = Math.min(start, wait.sinceNanos());
        }
        return start;
    }

    private void recovered(long now) {
        Stall was = current;
        if (was == null) {
            haveDiagnosis = false;
            return;
        }
        current = null;
        diagnosed = null;
        haveDiagnosis = false;
        pendingDiagnosis = null;
        if (warned) {
            log.info("{} is making progress again after {} s (it was: {})", application, was.seconds(now), was.cause());
        }
        warned = false;
    }
}
