package io.weir.benchmarks.jobs;

import io.weir.benchmarks.RunSpec;
import io.weir.benchmarks.Scenario;
import io.weir.benchmarks.SystemUnderTest;
import io.weir.benchmarks.input.Workload;
import io.weir.common.internal.Deadline;
import io.weir.testkit.KafkaTestClient;
import java.time.Duration;
import java.util.List;
import java.util.function.Consumer;

/**
 * What the scaling workloads ({@link FailoverJob}, {@link ScaleOutJob}) share: a group of
 * instances over {@link ScalingRun#PARTITIONS} input partitions, {@code keys} keys of state and
 * live traffic of {@code rate} records a second.
 */
abstract class ScalingJob extends KeyedJob {

    final int rate;

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
     * {@link ScalingRun#start} of {@code instances} (handed to {@code started} at once, so that the
     * run's state holds it whatever fails next), then the group under live traffic for
     * {@link ScalingRun#SETTLE} and awaited settled: the scaling workloads' preparation.
     */
    void startAndSettle(
            RunSpec spec,
            SystemUnderTest system,
            List<String> instances,
            Duration timeout,
            Consumer<ScalingRun> started)
            throws InterruptedException {
        Deadline deadline = Deadline.after(timeout);
        ScalingRun scaling = ScalingRun.start(client, workload, spec, system, instances, keys, rate, deadline);
        started.accept(scaling);
        scaling.runFor(ScalingRun.SETTLE, deadline);
        scaling.awaitSettled(deadline);
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
}
