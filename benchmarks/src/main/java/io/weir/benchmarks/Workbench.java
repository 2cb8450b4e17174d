package io.weir.benchmarks;

import io.weir.benchmarks.report.JsonReport;
import io.weir.benchmarks.report.Summary;
import io.weir.benchmarks.verification.OutputVerifier;
import io.weir.testkit.KafkaTestClient;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What a workload's line of the {@link WorkloadTable} runs with: the options, the broker's client,
 * the inputs on it, the report, and the configurations (system and guarantee) that {@code --systems}
 * left; and the steps every workload is made of: an unreported warm-up, measured repetitions, the
 * summaries.
 */
final class Workbench {

    private static final Logger log = LoggerFactory.getLogger(Workbench.class);

    /** One system under one guarantee. */
    record Configuration(SystemUnderTest system, Guarantee guarantee) {}

    private final Scenario scenario;
    private final BenchmarkOptions options;
    private final KafkaTestClient client;
    private final Inputs inputs;
    private final JsonReport report;
    private final List<Configuration> configurations;

    Workbench(
            Scenario scenario,
            BenchmarkOptions options,
            KafkaTestClient client,
            Inputs inputs,
            JsonReport report,
            List<Configuration> configurations) {
        this.scenario = scenario;
        this.options = options;
        this.client = client;
        this.inputs = inputs;
        this.report = report;
        this.configurations = List.copyOf(configurations);
    }

    Scenario scenario() {
        return scenario;
    }

    BenchmarkOptions options() {
        return options;
    }

    KafkaTestClient client() {
        return client;
    }

    Inputs inputs() {
        return inputs;
    }

    JsonReport report() {
        return report;
    }

    List<Configuration> configurations() {
        return configurations;
    }

    /** The output verifier of {@code --verify}, or empty. */
    Optional<OutputVerifier> verifier() {
        return options.verify() ? Optional.of(new OutputVerifier(client.bootstrapServers())) : Optional.empty();
    }

    /** Every configuration once, unreported. */
    void warmUp(Job job) {
        log.info(
                "Warm-up of {}: every configuration once over {} records",
                job.scenario().label(),
                job.records());
        RunExecutor executor = new RunExecutor(client, job, options.runTimeout(job.records()));
        for (Configuration c : configurations) {
            RunResult r = executor.execute(c.system(), c.guarantee(), 0);
            if (!r.ok()) {
                log.warn(
                        "Warm-up of {} {} {} failed: {}",
                        job.scenario().label(),
                        c.system().name(),
                        c.guarantee().label(),
                        r.error().get());
            }
        }
    }

    /**
     * {@code --runs} repetitions with the default timeout for the job's records, then a summary per
     * guarantee; whether every run succeeded.
     */
    boolean measureAndSummarize(Job job) {
        return measureAndSummarize(job, options.runTimeout(job.records()));
    }

    /** {@code --runs} repetitions within {@code timeout} each, then a summary per guarantee. */
    boolean measureAndSummarize(Job job, Duration timeout) {
        List<RunResult> results = measure(job, timeout, options.runs());
        for (Guarantee guarantee : scenario.guarantees()) {
            report.summary(Summary.of(scenario, guarantee, job.records(), results));
        }
        return allOk(results);
    }

    /**
     * {@code runs} repetitions of every configuration, each reported; each repetition runs them in
     * turn, starting one later each time, so that a slow phase of the machine spreads over all
     * systems rather than hitting one.
     */
    List<RunResult> measure(Job job, Duration timeout, int runs) {
        RunExecutor executor = new RunExecutor(client, job, timeout);
        List<RunResult> results = new ArrayList<>();
        for (int run = 1; run <= runs; run++) {
            for (int i = 0; i < configurations.size(); i++) {
                // Rotate the order by one each repetition: no configuration always runs first or last.
                Configuration c = configurations.get((i + run - 1) % configurations.size());
                RunResult result = executor.execute(c.system(), c.guarantee(), run);
                report.run(result);
                results.add(result);
            }
        }
        return results;
    }

    static boolean allOk(List<RunResult> results) {
        return results.stream().allMatch(RunResult::ok);
    }
}
