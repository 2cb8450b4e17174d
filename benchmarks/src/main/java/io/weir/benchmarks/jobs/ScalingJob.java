package io.weir.benchmarks.jobs;

import io.weir.benchmarks.Job;
import io.weir.benchmarks.Scenario;
import io.weir.benchmarks.input.Workload;
import io.weir.testkit.KafkaTestClient;

/**
 * What the scaling workloads ({@link FailoverJob}, {@link ScaleOutJob}) share: a group of
 * instances over {@link ScalingRun#PARTITIONS} input partitions, {@code keys} keys of state and
 * live traffic of {@code rate} records a second, its input named after the application.
 */
abstract class ScalingJob implements Job {

    final KafkaTestClient client;
    final Workload workload;
    final long keys;
    final int rate;
    private final Scenario scenario;

    ScalingJob(KafkaTestClient client, Workload workload, Scenario scenario, Scenario.Kind kind, long keys, int rate) {
        if (scenario.kind() != kind || keys <= 0 || rate <= 0) {
            throw new IllegalArgumentException("a " + kind + " job needs the " + kind + " workload, keys and a rate");
        }
        this.client = client;
        this.workload = workload;
        this.scenario = scenario;
        this.keys = keys;
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

    @Override
    public Scenario scenario() {
        return scenario;
    }

    @Override
    public String inputTopic(String applicationId) {
        return applicationId + "-in";
    }

    @Override
    public long records() {
        return keys;
    }

    @Override
    public int partitions() {
        return ScalingRun.PARTITIONS;
    }
}
