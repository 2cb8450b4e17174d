package io.weir.benchmarks.jobs;

import io.weir.benchmarks.Job;
import io.weir.benchmarks.RunSpec;
import io.weir.benchmarks.Scenario;
import io.weir.benchmarks.SystemUnderTest;
import io.weir.benchmarks.input.InputTopic;
import io.weir.benchmarks.input.Workload;
import io.weir.common.internal.Deadline;
import io.weir.common.internal.Poll;
import java.time.Duration;

/**
 * Restore a changelog of {@code keys} distinct keys into an empty store (the restore workload).
 *
 * <p>Before each run, off the clock, the changelog topic of the run's application id is written
 * ({@link Workload#createChangelog}: compacted, 4 partitions, each key once, 100-byte values,
 * without transactions), so the system finds a changelog and no local state: its state directory
 * is new. The system's other topics are made as an earlier run would have left them
 * ({@link SystemUnderTest#prepareExistingApplication}): a restore is a restart on lost local
 * state, and its topics exist then. The input topic is empty. The clock starts, as for every run, just before
 * {@link SystemUnderTest#start} and stops when the system reports every record restored
 * ({@link SystemUnderTest.Running#restoredRecords()}, polled every {@link #INTERVAL}).
 */
public final class RestoreJob implements Job {

    static final Duration INTERVAL = Duration.ofMillis(5);

    private final Workload workload;
    private final Scenario scenario;
    private final InputTopic emptyInput;
    private final long keys;

    public RestoreJob(Workload workload, Scenario scenario, InputTopic emptyInput, long keys) {
        if (scenario.kind() != Scenario.Kind.RESTORE || emptyInput.records() != 0) {
            throw new IllegalArgumentException("a restore job needs the restore workload and an empty input");
        }
        this.workload = workload;
        this.scenario = scenario;
        this.emptyInput = emptyInput;
        this.keys = keys;
    }

    @Override
    public Scenario scenario() {
        return scenario;
    }

    @Override
    public String inputTopic(String applicationId) {
        return emptyInput.name();
    }

    @Override
    public long records() {
        return keys;
    }

    @Override
    public void prepare(RunSpec spec, SystemUnderTest system, Duration timeout) throws Exception {
        workload.createChangelog(scenario.changelogTopic(spec.applicationId()), keys);
        system.prepareExistingApplication(spec);
    }

    @Override
    public long await(RunSpec spec, SystemUnderTest.Running running, long startedNanos, Deadline deadline)
            throws InterruptedException {
        long[] restored = {0};
        boolean done = Poll.until(
                () -> {
                    Throwable failure = running.failure().orElse(null);
                    if (failure != null) {
                        throw new IllegalStateException(
                                "failed after restoring " + restored[0] + " of " + keys + " records: " + failure,
                                failure);
                    }
                    restored[0] = running.restoredRecords();
                    return restored[0] >= keys;
                },
                deadline.remaining(),
                INTERVAL);
        if (!done) {
            throw new IllegalStateException("timed out after restoring " + restored[0] + " of " + keys + " records");
        }
        return System.nanoTime();
    }
}
