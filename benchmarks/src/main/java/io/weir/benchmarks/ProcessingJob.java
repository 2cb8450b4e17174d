package io.weir.benchmarks;

import java.util.Optional;

import org.apache.kafka.clients.admin.Admin;

/**
 * Process every record of an input topic (the map and count workloads). The clock stops when the
 * {@link CompletionProbe} sees the group's committed offsets at the input's end, and at least one
 * output record per input record (map) or per distinct key of the input (count).
 */
final class ProcessingJob implements Job {

    private final Scenario scenario;
    private final InputTopic input;
    private final CompletionProbe probe;
    private final Optional<OutputVerifier> verifier;

    ProcessingJob(Admin admin, Scenario scenario, InputTopic input, Optional<OutputVerifier> verifier) {
        if (scenario.kind() != Scenario.Kind.MAP && scenario.kind() != Scenario.Kind.COUNT) {
            throw new IllegalArgumentException(scenario.label() + " is not a processing workload");
        }
        this.scenario = scenario;
        this.input = input;
        this.probe = new CompletionProbe(admin, input,
                scenario.kind() == Scenario.Kind.MAP ? input.records() : input.distinctKeys());
        this.verifier = verifier;
    }

    @Override
    public Scenario scenario() {
        return scenario;
    }

    @Override
    public String inputTopic(String applicationId) {
        return input.name();
    }

    @Override
    public long records() {
        return input.records();
    }

    @Override
    public long await(RunSpec spec, SystemUnderTest.Running running, long startedNanos, long deadlineNanos)
            throws InterruptedException {
        probe.await(spec.applicationId(), spec.outputTopic(), Workload.PARTITIONS, running, deadlineNanos);
        return System.nanoTime();
    }

    @Override
    public Optional<String> verify(RunSpec spec) {
        return verifier.flatMap(v -> scenario.kind() == Scenario.Kind.MAP
                ? v.verify(spec.outputTopic(), Workload.PARTITIONS, input.records(), spec.guarantee())
                : v.verifyCounts(spec.outputTopic(), Workload.PARTITIONS, input.records(), input.distinctKeys()));
    }
}
