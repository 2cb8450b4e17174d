package io.weir.benchmarks.jobs;

import io.weir.benchmarks.Job;
import io.weir.benchmarks.Scenario;
import io.weir.benchmarks.input.Workload;
import io.weir.testkit.KafkaTestClient;

/**
 * What the jobs over {@code keys} distinct keys of state share (restart, memory, savepoint and the
 * scaling workloads): a workload of one kind, a run counted in keys, and an input of the run's own,
 * named after the application ({@code <application.id>-in}), that the job writes itself.
 */
abstract class KeyedJob implements Job {

    final KafkaTestClient client;
    final Workload workload;
    final long keys;
    private final Scenario scenario;

    /** @throws IllegalArgumentException unless {@code scenario} is of {@code kind} and there is a key */
    KeyedJob(KafkaTestClient client, Workload workload, Scenario scenario, Scenario.Kind kind, long keys) {
        if (scenario.kind() != kind || keys <= 0) {
            throw new IllegalArgumentException("a " + kind + " job needs the " + kind
                    + " workload and at least one key, not " + scenario.label() + " and " + keys);
        }
        this.client = client;
        this.workload = workload;
        this.scenario = scenario;
        this.keys = keys;
    }

    @Override
    public Scenario scenario() {
        return scenario;
    }

    @Override
    public String inputTopic(String applicationId) {
        return ownInput(applicationId);
    }

    /** Keys, not records: each is written once before the run. */
    @Override
    public long records() {
        return keys;
    }

    /** The input of a job that writes its own: {@code <application.id>-in}. */
    static String ownInput(String applicationId) {
        return applicationId + "-in";
    }
}
