package io.weir.benchmarks.jobs;

import io.weir.benchmarks.Job;
import io.weir.benchmarks.RunSpec;
import io.weir.benchmarks.Scenario;
import io.weir.benchmarks.SystemUnderTest;
import io.weir.benchmarks.input.InputTopic;
import io.weir.benchmarks.input.WindowModel;
import io.weir.benchmarks.input.WindowedInput;
import io.weir.benchmarks.input.Workload;
import io.weir.benchmarks.verification.CompletionProbe;
import io.weir.benchmarks.verification.OutputVerifier;
import io.weir.common.internal.Deadline;
import java.util.Optional;
import org.apache.kafka.clients.admin.Admin;

/**
 * Process every record of an input topic (the map, count and windowed-count workloads). The clock
 * stops when the {@link CompletionProbe} sees the group's committed offsets at the input's end, and
 * at least one output record per input record (map) or per distinct key of the input (count); for
 * the windowed count, when the output holds, committed, a result for every (key, window) the input
 * closes ({@link WindowModel#closedResults()}).
 */
public final class ProcessingJob implements Job {

    private final Scenario scenario;
    private final InputTopic input;
    /** The windowed count's model; null for the map and count. */
    private final WindowModel model;

    private final CompletionProbe probe;
    private final Optional<OutputVerifier> verifier;

    public ProcessingJob(Admin admin, Scenario scenario, InputTopic input, Optional<OutputVerifier> verifier) {
        this(admin, mapOrCount(scenario), input, null, verifier);
    }

    private static Scenario mapOrCount(Scenario scenario) {
        if (scenario.kind() != Scenario.Kind.MAP && scenario.kind() != Scenario.Kind.COUNT) {
            throw new IllegalArgumentException(scenario.label() + " is not a map or count workload");
        }
        return scenario;
    }

    private ProcessingJob(
            Admin admin, Scenario scenario, InputTopic input, WindowModel model, Optional<OutputVerifier> verifier) {
        this.scenario = scenario;
        this.input = input;
        this.model = model;
        this.probe = new CompletionProbe(
                admin,
                input,
                switch (scenario.kind()) {
                    case MAP -> input.records();
                    case WINDOW_COUNT -> model.closedResults();
                    default -> input.distinctKeys();
                });
        this.verifier = verifier;
    }

    /** The windowed count over {@code input}. */
    public static ProcessingJob windowed(
            Admin admin, Scenario scenario, WindowedInput input, Optional<OutputVerifier> verifier) {
        if (scenario.kind() != Scenario.Kind.WINDOW_COUNT) {
            throw new IllegalArgumentException(scenario.label() + " is not a windowed workload");
        }
        return new ProcessingJob(admin, scenario, input.topic(), input.model(), verifier);
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
    public long await(RunSpec spec, SystemUnderTest.Running running, long startedNanos, Deadline deadline)
            throws InterruptedException {
        if (model != null) {
            // Committed output, counted: the emissions on window close are the work.
            return probe.awaitCommittedOutput(
                    spec.applicationId(),
                    spec.bootstrapServers(),
                    spec.outputTopic(),
                    Workload.PARTITIONS,
                    running,
                    deadline);
        }
        probe.await(spec.applicationId(), spec.outputTopic(), Workload.PARTITIONS, running, deadline);
        return System.nanoTime();
    }

    @Override
    public Optional<String> verify(RunSpec spec) {
        return verifier.flatMap(v -> switch (scenario.kind()) {
            case MAP -> v.verify(spec.outputTopic(), Workload.PARTITIONS, input.records(), spec.guarantee());
            case WINDOW_COUNT -> v.verifyWindowCounts(spec.outputTopic(), Workload.PARTITIONS, model);
            default -> v.verifyCounts(spec.outputTopic(), Workload.PARTITIONS, input.records(), input.distinctKeys());
        });
    }
}
