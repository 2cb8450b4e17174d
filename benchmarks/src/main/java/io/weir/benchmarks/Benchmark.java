package io.weir.benchmarks;

import java.io.PrintStream;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.streams.StreamsConfig;
import org.rocksdb.RocksDB;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.weir.testkit.ChildProcessKafka;
import io.weir.testkit.KafkaTestClient;

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

    private static final String RESTART_INSTANCE_ID = "bench-restart";
    /** The session timeout of the restart and scaling workloads, both systems: Weir's default. */
    private static final Duration SESSION_TIMEOUT = Duration.ofSeconds(10);
    /** A scaling workload's failover waits for the session timeout and a transaction's abort. */
    private static final Duration FAILOVER_ALLOWANCE = Duration.ofMinutes(2);
    /** A savepoint run loads its state, runs a baseline, takes the savepoint and restores it. */
    private static final Duration SAVEPOINT_ALLOWANCE = Duration.ofMinutes(3);

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

    /** One workload: warm-up, measured runs, summaries. Returns whether every measured run succeeded. */
    private boolean run(Scenario scenario, KafkaTestClient client, Inputs inputs) {
        if (scenario.kind() == Scenario.Kind.QUERIES) {
            try {
                return new QueryBench(client, report, (int) options.keys(scenario),
                        Duration.ofSeconds(5), Duration.ofSeconds(20)).run();
            } catch (Exception e) {
                log.error("queries failed: {}", e.toString(), e);
                if (e instanceof InterruptedException) {
                    Thread.currentThread().interrupt();
                }
                return false;
            }
        }
        List<Configuration> configurations = configurations(scenario);
        if (configurations.isEmpty()) {
            log.warn("{}: none of its systems is among --systems; skipped", scenario.label());
            return true;
        }
        if (scenario.kind() == Scenario.Kind.YSB) {
            return ysb(scenario, client, configurations);
        }
        Job job;
        int runs = options.runs();
        Duration timeout = null; // the default for the job's records unless a case sets one
        switch (scenario.kind()) {
            case RESTORE -> {
                InputTopic empty = inputs.only(0, scenario.distinctKeys());
                if (options.restoreWarmupKeys() > 0) {
                    warmUp(client, new RestoreJob(inputs.workload(), scenario, empty, options.restoreWarmupKeys()),
                            configurations);
                }
                job = new RestoreJob(inputs.workload(), scenario, empty, options.restoreKeys());
            }
            // Each run starts fresh processes, so there is no JIT to warm up; each writes its own input.
            case RESTART -> {
                inputs.deleteAll();
                job = new RestartJob(client, inputs.workload(), scenario, options.keys(scenario),
                        options.restartTrickle());
            }
            // Fresh processes too, on an empty input of their own; one unreported run of each first
            // warms the operating system's file cache (the JVM and the class path's JARs).
            case READY -> {
                job = new ReadyJob(client, scenario);
                warmUp(client, job, configurations);
            }
            // Groups of fresh processes, each run on an input of its own; the run timeout also
            // bounds the wait for a rebalance that settles the group.
            case FAILOVER -> {
                inputs.deleteAll();
                long keys = options.keys(scenario);
                job = new FailoverJob(client, inputs.workload(), scenario, keys, options.rate());
                timeout = options.runTimeout(keys, FAILOVER_ALLOWANCE);
            }
            case SCALE_OUT -> {
                inputs.deleteAll();
                long keys = options.keys(scenario);
                job = new ScaleOutJob(client, inputs.workload(), scenario, keys, options.rate());
                timeout = options.runTimeout(keys, ScaleOutJob.BALANCE_ALLOWANCE);
            }
            // One application in this JVM, on an input of its own; the timeout also bounds loading its
            // state, the baseline, and (off the clock) the restore into a new application.
            case SAVEPOINT -> {
                inputs.deleteAll();
                long keys = options.keys(scenario);
                job = new SavepointJob(client, inputs.workload(), scenario, keys, options.rate());
                timeout = options.runTimeout(keys, SAVEPOINT_ALLOWANCE);
            }
            case MEMORY -> {
                inputs.deleteAll();
                job = new MemoryJob(client, inputs.workload(), scenario, options.keys(scenario));
                runs = 1; // one peak against one bound: the workload is long and its figure is not a median
            }
            case WINDOW_COUNT -> {
                // As for map and count, with windowed inputs: a warm-up input and the main one.
                if (options.warmupRecords() > 0) {
                    WindowedInput warmup = inputs.windowed(options.warmupRecords(), scenario.distinctKeys(),
                            options.records());
                    warmUp(client, ProcessingJob.windowed(client.admin(), scenario, warmup, verifier(client)),
                            configurations);
                }
                WindowedInput input = inputs.windowed(options.records(), scenario.distinctKeys());
                job = ProcessingJob.windowed(client.admin(), scenario, input, verifier(client));
            }
            default -> {
                if (options.warmupRecords() > 0) {
                    // Only the warm-up input (and a main input the previous workload left) is kept meanwhile.
                    InputTopic warmup = inputs.only(options.warmupRecords(), scenario.distinctKeys(),
                            options.records());
                    warmUp(client, new ProcessingJob(client.admin(), scenario, warmup, verifier(client)),
                            configurations);
                }
                // The warm-up input is deleted to free the broker's disk.
                InputTopic input = inputs.only(options.records(), scenario.distinctKeys());
                job = new ProcessingJob(client.admin(), scenario, input, verifier(client));
            }
        }
        List<RunResult> results = measure(new RunExecutor(client, job,
                timeout != null ? timeout : options.runTimeout(job.records())), configurations, runs);
        if (scenario.kind() != Scenario.Kind.MEMORY) {
            for (Guarantee guarantee : scenario.guarantees()) {
                report.summary(Summary.of(scenario, guarantee, job.records(), results));
            }
        }
        return results.stream().allMatch(RunResult::ok);
    }

    /**
     * The ysb workload: per rate of the ladder, each configuration once (the order rotated by one per
     * rate), each run its own warm-up ({@link YsbJob}); then the summary. Falling behind is a result,
     * not a failure: only a run that could not be carried out fails.
     */
    private boolean ysb(Scenario scenario, KafkaTestClient client, List<Configuration> configurations) {
        BenchmarkOptions.Ysb ladder = options.ysb();
        List<RunResult> results = new ArrayList<>();
        for (int step = 0; step < ladder.rates().size(); step++) {
            YsbJob job = new YsbJob(client, scenario, ladder.rates().get(step), ladder.warmup(), ladder.measured(),
                    ladder.drain());
            RunExecutor executor = new RunExecutor(client, job, job.timeout());
            for (int i = 0; i < configurations.size(); i++) {
                Configuration c = configurations.get((i + step) % configurations.size());
                RunResult result = executor.execute(c.system(), c.guarantee(), step + 1);
                report.run(result);
                results.add(result);
            }
        }
        report.ysbSummary(results);
        return results.stream().allMatch(RunResult::ok);
    }

    /** Every configuration once, unreported. */
    private void warmUp(KafkaTestClient client, Job job, List<Configuration> configurations) {
        log.info("Warm-up of {}: every configuration once over {} records", job.scenario().label(), job.records());
        RunExecutor executor = new RunExecutor(client, job, options.runTimeout(job.records()));
        for (Configuration c : configurations) {
            RunResult r = executor.execute(c.system(), c.guarantee(), 0);
            if (!r.ok()) {
                log.warn("Warm-up of {} {} {} failed: {}", job.scenario().label(), c.system().name(),
                        c.guarantee().label(), r.error().get());
            }
        }
    }

    private Optional<OutputVerifier> verifier(KafkaTestClient client) {
        return options.verify() ? Optional.of(new OutputVerifier(client.bootstrapServers())) : Optional.empty();
    }

    private List<RunResult> measure(RunExecutor executor, List<Configuration> configurations, int runs) {
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

    /**
     * Each guarantee of the workload with each system that runs it (the bare baseline: stateless map
     * and restore only; Weir scraped beside Weir if {@code --scrape-metrics-ms} is given). The HTTP overhead runs
     * Weir without HTTP, with HTTP idle and scraped, and Kafka Streams. Restart, memory and
     * start-to-ready run the systems in child processes: Weir and Kafka Streams, and Weir alone for
     * memory.
     */
    private List<Configuration> configurations(Scenario scenario) {
        List<SystemUnderTest> candidates = switch (scenario.kind()) {
            case RESTART -> List.of(restartProcess("weir"), restartProcess("kafka_streams"));
            case MEMORY -> List.of(MemoryJob.system());
            case READY -> List.of(readyProcess("weir").withHttpPortPerRun(), readyProcess("kafka_streams"));
            // failover also with Weir's failure detection at 1 s, beside its default (3 s).
            case FAILOVER -> List.of(scalingProcess("weir"), scalingProcess("weir").variant(FAST_DETECTION,
                    Map.of("failure.detection.ms", "1000")), scalingProcess("kafka_streams"));
            case SCALE_OUT -> List.of(scalingProcess("weir"), scalingProcess("kafka_streams"));
            case SAVEPOINT -> List.of(new WeirRunner());
            case YSB -> List.of(new WeirRunner(), new KafkaStreamsRunner());
            default -> scenario == Scenario.BOUNDED ? List.of(new WeirRunner(), WeirRunner.bounded())
                    : scenario == Scenario.HTTP_OVERHEAD
                    ? List.of(WeirRunner.withoutHttp(), new WeirRunner(), WeirRunner.scraped(options.scrapeInterval()),
                            new KafkaStreamsRunner())
                    : options.explicitScrapeInterval().isPresent()
                            ? List.of(new WeirRunner(), WeirRunner.scraped(options.scrapeInterval()),
                                    new KafkaStreamsRunner(), new BareLoop())
                            : List.of(new WeirRunner(), new KafkaStreamsRunner(), new BareLoop());
        };
        if (scenario.kind() == Scenario.Kind.RESTORE) {
            // Both ways of restoring, in one run: by ingestion (the default) and by write batches.
            candidates = new ArrayList<>(candidates);
            candidates.add(1, WeirRunner.batchRestore());
        }
        List<Configuration> all = new ArrayList<>();
        for (Guarantee guarantee : scenario.guarantees()) {
            for (SystemUnderTest system : candidates) {
                if ((scenario.hasBare() || !system.name().equals("bare")) && options.runs(system.name())) {
                    all.add(new Configuration(system, guarantee));
                }
            }
        }
        return all;
    }

    /**
     * The restart workload's process of {@code system}: the same heap for both, the same session
     * timeout (Weir's default, 10 s), and a fixed identity so that the restarted process is the same
     * static group member and (exactly-once) the same transactional producer as the killed one: Weir's
     * {@code instance.id}; Kafka Streams' {@code group.instance.id} (it appends the thread index) and
     * its process id, which it keeps in the state directory.
     */
    private static SystemUnderTest restartProcess(String system) {
        List<String> jvm = List.of("-Xms1g", "-Xmx1g", "-XX:+UseParallelGC");
        String session = Long.toString(SESSION_TIMEOUT.toMillis());
        Map<String, String> settings = system.equals("weir")
                ? Map.of("instance.id", RESTART_INSTANCE_ID, "consumer.session.timeout.ms", session)
                : Map.of(StreamsConfig.mainConsumerPrefix(ConsumerConfig.GROUP_INSTANCE_ID_CONFIG), RESTART_INSTANCE_ID,
                        StreamsConfig.mainConsumerPrefix(ConsumerConfig.SESSION_TIMEOUT_MS_CONFIG), session);
        return new ChildCountRunner(system, jvm, settings);
    }

    /**
     * The start-to-ready workload's process of {@code system}: the restart workload's JVM, and
     * otherwise the count topology exactly as in {@code count-1m}.
     */
    private static ChildCountRunner readyProcess(String system) {
        return new ChildCountRunner(system, List.of("-Xms1g", "-Xmx1g", "-XX:+UseParallelGC"), Map.of());
    }

    /**
     * The scaling workloads' instances of {@code system}, before {@link ChildCountRunner#instance}
     * gives each its identity (static membership), state directory and HTTP port: the restart
     * workload's JVM, the count topology exactly as in {@code count-1m}, and the same settings for
     * both systems: {@code num.standby.replicas=1} and {@code consumer.session.timeout.ms} 10 s (Weir's
     * default, set on both). Everything else keeps each system's defaults: Weir's
     * {@code failure.detection.ms}, {@code max.warmup.replicas}, {@code acceptable.recovery.lag} and
     * {@code probing.rebalance.interval.ms}; Kafka Streams' {@code max.warmup.replicas},
     * {@code acceptable.recovery.lag} and {@code probing.rebalance.interval.ms} (10 minutes).
     */
    /** failover's Weir with {@code failure.detection.ms=1000}. */
    static final String FAST_DETECTION = "weir_detection_1s";

    private static ChildCountRunner scalingProcess(String system) {
        return new ChildCountRunner(system, List.of("-Xms1g", "-Xmx1g", "-XX:+UseParallelGC"), Map.of(
                "num.standby.replicas", "1",
                "consumer." + ConsumerConfig.SESSION_TIMEOUT_MS_CONFIG,
                Long.toString(SESSION_TIMEOUT.toMillis())));
    }

    /** One system under one guarantee. */
    private record Configuration(SystemUnderTest system, Guarantee guarantee) {
    }

    /**
     * The input topics on the broker, named by size and key count (and, for a windowed input, so
     * named): a workload asks for the ones it needs, and every other is deleted, so the broker holds
     * at most a warm-up and a main input (count-10k reuses the stateless map's input: the same
     * records over the same 10,000 keys).
     */
    private static final class Inputs {
        private final KafkaTestClient client;
        private final Workload workload;
        private final Map<String, InputTopic> topics = new HashMap<>();
        /** The models of the windowed inputs among {@link #topics}. */
        private final Map<String, WindowModel> models = new HashMap<>();

        Inputs(KafkaTestClient client, Workload workload) {
            this.client = client;
            this.workload = workload;
        }

        Workload workload() {
            return workload;
        }

        /** Deletes every input (the restart and memory workloads write one per run). */
        void deleteAll() {
            keepOnly(Set.of());
        }

        /**
         * The input of {@code records} records over {@code keys} keys, written if need be; every
         * input other than it and those of {@code alsoKeep} records (same keys) is deleted first.
         */
        InputTopic only(long records, int keys, long... alsoKeep) {
            keepOnly(names(false, records, keys, alsoKeep));
            return topics.computeIfAbsent(name(false, records, keys), n -> workload.create(n, records, keys));
        }

        /**
         * The windowed input ({@link Workload#createWindowed}) of {@code records} records over
         * {@code keys} keys, written if need be; every input other than it and the windowed ones
         * of {@code alsoKeep} records is deleted first.
         */
        WindowedInput windowed(long records, int keys, long... alsoKeep) {
            keepOnly(names(true, records, keys, alsoKeep));
            String name = name(true, records, keys);
            if (!topics.containsKey(name)) {
                WindowedInput created = workload.createWindowed(name, records, keys,
                        Scenario.WINDOW_SIZE.toMillis());
                topics.put(name, created.topic());
                models.put(name, created.model());
            }
            return new WindowedInput(topics.get(name), models.get(name));
        }

        private void keepOnly(Set<String> keep) {
            for (String name : List.copyOf(topics.keySet())) {
                if (!keep.contains(name)) {
                    client.deleteTopic(name);
                    topics.remove(name);
                    models.remove(name);
                }
            }
        }

        private static Set<String> names(boolean windowed, long records, int keys, long... alsoKeep) {
            Set<String> names = new java.util.HashSet<>();
            names.add(name(windowed, records, keys));
            for (long r : alsoKeep) {
                names.add(name(windowed, r, keys));
            }
            return names;
        }

        private static String name(boolean windowed, long records, int keys) {
            return "bench-" + (windowed ? "windowed-" : "") + "input-" + keys + "-keys-" + records + "-records";
        }
    }
}
