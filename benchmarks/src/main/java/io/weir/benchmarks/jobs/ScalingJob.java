package io.weir.benchmarks.jobs;

import io.weir.benchmarks.RunSpec;
import io.weir.benchmarks.Scenario;
import io.weir.benchmarks.SystemUnderTest;
import io.weir.benchmarks.input.Workload;
import io.weir.benchmarks.systems.InstanceGroup;
import io.weir.common.internal.Deadline;
import io.weir.testkit.KafkaTestClient;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;

/**
 * What the scaling workloads ({@link FailoverJob}, {@link ScaleOutJob}) share: a group of
 * instances over {@link ScalingRun#PARTITIONS} input partitions, {@code keys} keys of state and
 * live traffic of {@code rate} records a second.
 */
abstract class ScalingJob<R extends ScalingJob.RunState> extends KeyedJob {

    final int rate;

    /** The state of the current run, from {@link #prepare} to {@link #details}. */
    private R current;

    ScalingJob(KafkaTestClient client, Workload workload, Scenario scenario, Scenario.Kind kind, long keys, int rate) {
        super(client, workload, scenario, kind, keys);
        if (rate <= 0) {
            throw new IllegalArgumentException("a " + kind + " job needs a positive rate, not " + rate);
        }
        this.rate = rate;
    }

    /** Seconds to the millisecond, as the run lines print them. */
    static double round(double seconds) {
        return Math.round(seconds * 1000) / 1000.0;
    }

    /** The run's {@code load_seconds}, or null when its state was never loaded. */
    static Double loadSeconds(ScalingRun scaling) {
        return scaling == null || Double.isNaN(scaling.loadSeconds()) ? null : round(scaling.loadSeconds());
    }

    /**
     * Makes {@code run} the current run and prepares it: {@link ScalingRun#start} of {@code instances}
     * (in {@code run.scaling} at once, so that the run's state holds it whatever fails next), then
     * {@code started} with the run, then the group under live traffic for {@link ScalingRun#SETTLE}
     * and awaited settled: the scaling workloads' preparation.
     */
    R startAndSettle(
            RunSpec spec, SystemUnderTest system, List<String> instances, Duration timeout, R run, Consumer<R> started)
            throws InterruptedException {
        current = run;
        Deadline deadline = Deadline.after(timeout);
        run.scaling = ScalingRun.start(client, workload, spec, system, instances, keys, rate, deadline);
        started.accept(run);
        run.scaling.runFor(ScalingRun.SETTLE, deadline);
        run.scaling.awaitSettled(deadline);
        return run;
    }

    /** The change the workload measures, made to the prepared group, which runs on as the system. */
    abstract void change(InstanceGroup group) throws Exception;

    @Override
    public final SystemUnderTest.Running start(SystemUnderTest system, RunSpec spec) throws Exception {
        InstanceGroup group = current.scaling.group();
        change(group);
        return group;
    }

    /** The current run, as {@link #prepare} left it. */
    R current() {
        return current;
    }

    /** The run's details, as {@link #details} returns them; {@code run} is null when none was prepared. */
    abstract Map<String, Object> details(RunSpec spec, R run);

    /** The current run's details, and the run is over: its instances stopped, then its reader closed. */
    @Override
    public final Map<String, Object> details(RunSpec spec) {
        R run = current;
        current = null;
        Map<String, Object> d = details(spec, run);
        if (run != null) {
            run.close();
        }
        return d;
    }

    /**
     * Stops the run's instances first, whatever else fails (no process may outlive the run), then
     * {@code watcher} (what read the output), if any.
     */
    static void closeInstancesFirst(ScalingRun scaling, Runnable watcher) {
        try {
            if (scaling != null) {
                scaling.close();
            }
        } catch (Exception e) {
            throw new IllegalStateException("cannot stop the run's instances: " + e, e);
        } finally {
            watcher.run();
        }
    }

    @Override
    public int partitions() {
        return ScalingRun.PARTITIONS;
    }

    /** What every run of a scaling workload holds: its group, its clock's start, the restores it saw. */
    abstract static class RunState {
        ScalingRun scaling;
        long startedNanos;
        long restored = -1;

        /** Closes what read the run's output, if anything did; called after the instances stopped. */
        abstract void closeReader();

        /** The run's {@code restored_records}, or null when not observed. */
        Long restoredRecords() {
            return restored < 0 ? null : restored;
        }

        void close() {
            closeInstancesFirst(scaling, this::closeReader);
        }
    }
}
