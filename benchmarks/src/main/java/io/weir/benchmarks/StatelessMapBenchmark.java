package io.weir.benchmarks;

import java.io.PrintStream;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.weir.testkit.ChildProcessKafka;
import io.weir.testkit.KafkaTestClient;

/**
 * Throughput of a stateless map in Weir, Kafka Streams and a bare kafka-clients loop, under
 * exactly-once and at-least-once, against one Kafka broker in its own JVM.
 *
 * <p>The program writes the input once (and a smaller warm-up input), runs each of the six
 * configurations once over the warm-up input so the JIT has compiled all three systems, then runs
 * {@code --runs} repetitions; each repetition runs all six configurations in turn, starting one
 * later each repetition, so that a slow phase of the machine spreads over all systems rather than
 * hitting one. Results go to stdout as JSON lines (one per run, then one summary per guarantee with
 * medians); progress and logs go to stderr. The exit code is 1 if any measured run failed.
 *
 * <p>The broker runs in a separate process so that its CPU and GC are not charged to the system
 * under test's JVM, although on a small machine they still share cores.
 */
public final class StatelessMapBenchmark {

    private static final Logger log = LoggerFactory.getLogger(StatelessMapBenchmark.class);

    private final BenchmarkOptions options;
    private final JsonReport report;
    private final List<SystemUnderTest> systems = List.of(new WeirRunner(), new KafkaStreamsRunner(), new BareLoop());

    StatelessMapBenchmark(BenchmarkOptions options, PrintStream out) {
        this.options = options;
        this.report = new JsonReport(out);
    }

    /** Runs the benchmark; see the class comment for the options. */
    public static void main(String[] args) {
        if (Arrays.asList(args).contains("--help") || Arrays.asList(args).contains("-h")) {
            System.err.println(BenchmarkOptions.USAGE);
            return;
        }
        BenchmarkOptions options;
        try {
            options = BenchmarkOptions.parse(args);
        } catch (IllegalArgumentException e) {
            System.err.println(e.getMessage());
            System.exit(2);
            return;
        }
        int exitCode;
        try {
            exitCode = new StatelessMapBenchmark(options, System.out).run();
        } catch (RuntimeException e) {
            log.error("Benchmark aborted", e);
            exitCode = 3;
        }
        // A system that hung on close may have left non-daemon threads behind; do not wait for them.
        System.exit(exitCode);
    }

    int run() {
        log.info("Starting one broker process; {}", options);
        try (ChildProcessKafka kafka = ChildProcessKafka.builder().nodes(1).start();
                KafkaTestClient client = KafkaTestClient.connect(kafka.bootstrapServers())) {
            Workload workload = new Workload(client);
            if (options.warmupRecords() > 0) {
                warmUp(client, workload.create("bench-warmup-input", options.warmupRecords()));
            }
            InputTopic input = workload.create("bench-input", options.records());
            List<RunResult> results = measure(new RunExecutor(client, input, options.runTimeout(input.records()),
                    verifier(client)));
            for (Guarantee guarantee : Guarantee.values()) {
                report.summary(Summary.of(guarantee, input.records(), results));
            }
            return results.stream().allMatch(RunResult::ok) ? 0 : 1;
        }
    }

    /** Every configuration once, unreported, then the warm-up input is deleted to free the broker's disk. */
    private void warmUp(KafkaTestClient client, InputTopic warmup) {
        log.info("Warm-up: every configuration once over {} records", warmup.records());
        RunExecutor executor = new RunExecutor(client, warmup, options.runTimeout(warmup.records()),
                verifier(client));
        for (Configuration c : configurations()) {
            RunResult r = executor.execute(c.system(), c.guarantee(), 0);
            if (!r.ok()) {
                log.warn("Warm-up of {} {} failed: {}", c.system().name(), c.guarantee().label(), r.error().get());
            }
        }
        client.deleteTopic(warmup.name());
    }

    private Optional<OutputVerifier> verifier(KafkaTestClient client) {
        return options.verify() ? Optional.of(new OutputVerifier(client.bootstrapServers())) : Optional.empty();
    }

    private List<RunResult> measure(RunExecutor executor) {
        List<Configuration> configurations = configurations();
        List<RunResult> results = new ArrayList<>();
        for (int run = 1; run <= options.runs(); run++) {
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

    /** The six configurations: each guarantee with each system. */
    private List<Configuration> configurations() {
        List<Configuration> all = new ArrayList<>();
        for (Guarantee guarantee : Guarantee.values()) {
            for (SystemUnderTest system : systems) {
                all.add(new Configuration(system, guarantee));
            }
        }
        return all;
    }

    /** One system under one guarantee. */
    private record Configuration(SystemUnderTest system, Guarantee guarantee) {
    }
}
