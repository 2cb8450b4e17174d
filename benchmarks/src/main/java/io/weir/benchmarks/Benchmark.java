package io.weir.benchmarks;

import io.weir.benchmarks.input.Workload;
import io.weir.benchmarks.report.JsonReport;
import io.weir.benchmarks.systems.ChildCountRunner;
import io.weir.benchmarks.systems.InstanceGroup;
import io.weir.testkit.ChildProcessKafka;
import io.weir.testkit.KafkaTestClient;
import java.io.PrintStream;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.rocksdb.RocksDB;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Throughput of Weir, Kafka Streams and (for the stateless map and the restore) a bare kafka-clients
 * baseline, on the workloads of {@link Scenario}, against one Kafka broker in its own JVM.
 *
 * <p>Per workload, in the order given ({@code --workload all}: stateless-map, count-10k, count-1m,
 * restore-1m, window-count-10s), the program writes the input (reused by the next workload if it
 * needs the same one) and a smaller warm-up input, runs each configuration (system and guarantee) once over the
 * warm-up input so the JIT has compiled every system, then runs {@code --runs} repetitions; each
 * repetition runs all configurations in turn, starting one later each repetition, so that a slow
 * phase of the machine spreads over all systems rather than hitting one. Results go to stdout as
 * JSON lines (one per run, then one summary per workload and guarantee with medians); progress and
 * logs go to stderr. The exit code is 1 if any measured run failed.
 *
 * <p>The process workloads ({@code extras}: restart-1m, memory-10m; and start-to-ready) run the
 * systems in child JVMs ({@link ChildCountRunner}), each run with an input of its own and no JIT
 * warm-up (every run starts fresh processes); memory-10m runs once. {@code http-overhead} runs the
 * stateless map in Weir without HTTP, with HTTP idle and with {@code /metrics} scraped, beside
 * Kafka Streams. The scaling workloads ({@code scaling}: failover, scale-out) run groups of
 * instances in child JVMs ({@link InstanceGroup}), each run with an input of its own.
 *
 * <p>The broker runs in a separate process so that its CPU and GC are not charged to the system
 * under test's JVM, although on a small machine they still share cores.
 */
public final class Benchmark {

    private static final Logger log = LoggerFactory.getLogger(Benchmark.class);

    private final BenchmarkOptions options;
    private final JsonReport report;

    Benchmark(BenchmarkOptions options, PrintStream out) {
        this.options = options;
        this.report = new JsonReport(out);
    }

    /** Runs the benchmark; see {@link BenchmarkOptions} for the options. */
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
            exitCode = new Benchmark(options, System.out).run();
        } catch (RuntimeException e) {
            log.error("Benchmark aborted", e);
            exitCode = 3;
        }
        // A system that hung on close may have left non-daemon threads behind; do not wait for them.
        System.exit(exitCode);
    }

    int run() {
        log.info("Starting one broker process; {}", options);
        // Weir and Kafka Streams share this JVM's class path, hence one rocksdbjni for both.
        RocksDB.loadLibrary();
        log.info("rocksdbjni {} (Weir and Kafka Streams alike)", RocksDB.rocksdbVersion());
        try (ChildProcessKafka kafka = ChildProcessKafka.builder().nodes(1).start();
                KafkaTestClient client = KafkaTestClient.connect(kafka.bootstrapServers())) {
            Inputs inputs = new Inputs(client, new Workload(client));
            boolean allOk = true;
            for (Scenario scenario : options.workloads()) {
                allOk &= run(scenario, client, inputs);
            }
            return allOk ? 0 : 1;
        }
    }

    /**
     * One workload, as its line of the {@link WorkloadTable} runs it (usually: warm-up, measured
     * runs, summaries). Returns whether every measured run succeeded.
     */
    private boolean run(Scenario scenario, KafkaTestClient client, Inputs inputs) {
        WorkloadTable.Entry entry = WorkloadTable.of(scenario.kind());
        List<SystemUnderTest> systems = entry.lineup().systems(scenario, options);
        List<Workbench.Configuration> configurations = configurations(scenario, systems, options);
        // A workload that names no systems runs its own (queries); --systems does not apply to it.
        if (!systems.isEmpty() && configurations.isEmpty()) {
            log.warn("{}: none of its systems is among --systems; skipped", scenario.label());
            return true;
        }
        log.info("{}: {}", scenario.label(), entry.description());
        return entry.plan().run(new Workbench(scenario, options, client, inputs, report, configurations));
    }

    /**
     * Each guarantee of the workload with each of {@code systems} that {@code --systems} keeps (the
     * bare baseline only where the workload has one).
     */
    static List<Workbench.Configuration> configurations(
            Scenario scenario, List<SystemUnderTest> systems, BenchmarkOptions options) {
        List<Workbench.Configuration> all = new ArrayList<>();
        for (Guarantee guarantee : scenario.guarantees()) {
            for (SystemUnderTest system : systems) {
                if ((scenario.hasBare() || !system.name().equals("bare")) && options.runs(system.name())) {
                    all.add(new Workbench.Configuration(system, guarantee));
                }
            }
        }
        return all;
    }
}
