package io.weir.benchmarks;

import io.weir.benchmarks.Scenario.Kind;
import io.weir.benchmarks.enrich.EnrichBench;
import io.weir.benchmarks.input.InputTopic;
import io.weir.benchmarks.input.WindowedInput;
import io.weir.benchmarks.jobs.FailoverJob;
import io.weir.benchmarks.jobs.MemoryJob;
import io.weir.benchmarks.jobs.ProcessingJob;
import io.weir.benchmarks.jobs.QueryBench;
import io.weir.benchmarks.jobs.ReadyJob;
import io.weir.benchmarks.jobs.RestartJob;
import io.weir.benchmarks.jobs.RestoreJob;
import io.weir.benchmarks.jobs.SavepointJob;
import io.weir.benchmarks.jobs.ScaleOutJob;
import io.weir.benchmarks.serde.SerdeBench;
import io.weir.benchmarks.systems.BareLoop;
import io.weir.benchmarks.systems.ChildCountRunner;
import io.weir.benchmarks.systems.KafkaStreamsRunner;
import io.weir.benchmarks.systems.WeirRunner;
import io.weir.benchmarks.ysb.YsbJob;
import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.streams.StreamsConfig;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Each kind of workload ({@link Scenario.Kind}) in one line: what it measures, the systems it
 * compares ({@link Lineup}) and how it runs ({@link Plan}: its inputs, warm-up, jobs and
 * summaries). A workload of an existing kind is one line in {@link Scenario}; a new kind is one line
 * here, with its job.
 */
final class WorkloadTable {

    private static final Logger log = LoggerFactory.getLogger(WorkloadTable.class);

    /** A scaling workload's failover waits for the session timeout and a transaction's abort. */
    private static final Duration FAILOVER_ALLOWANCE = Duration.ofMinutes(2);
    /** A savepoint run loads its state, runs a baseline, takes the savepoint and restores it. */
    private static final Duration SAVEPOINT_ALLOWANCE = Duration.ofMinutes(3);

    private static final String RESTART_INSTANCE_ID = "bench-restart";
    /** The session timeout of the restart and scaling workloads, both systems: Weir's default. */
    private static final Duration SESSION_TIMEOUT = Duration.ofSeconds(10);
    /** The child processes' JVM: the same heap and collector for both systems. */
    private static final List<String> CHILD_JVM = List.of("-Xms1g", "-Xmx1g", "-XX:+UseParallelGC");

    /**
     * The systems a workload compares, before {@code --systems} picks among them; none for a
     * workload that runs its own systems ({@code queries}).
     */
    @FunctionalInterface
    interface Lineup {
        List<SystemUnderTest> systems(Scenario scenario, BenchmarkOptions options);
    }

    /** Runs a workload: inputs, warm-up, measured runs and summaries; whether every measured run succeeded. */
    @FunctionalInterface
    interface Plan {
        boolean run(Workbench bench);
    }

    /** One kind's line of the table. */
    record Entry(String description, Lineup lineup, Plan plan) {}

    private static final Map<Kind, Entry> TABLE = new EnumMap<>(Map.ofEntries(
            Map.entry(
                    Kind.MAP,
                    new Entry(
                            "process an input: the stateless map",
                            WorkloadTable::inProcess,
                            WorkloadTable::processing)),
            Map.entry(
                    Kind.COUNT,
                    new Entry("process an input: the count", WorkloadTable::inProcess, WorkloadTable::processing)),
            Map.entry(
                    Kind.RESTORE,
                    new Entry(
                            "restore a changelog into an empty store",
                            WorkloadTable::restoring,
                            WorkloadTable::restore)),
            Map.entry(
                    Kind.WINDOW_COUNT,
                    new Entry(
                            "process a windowed input: count per window, emitted on close",
                            WorkloadTable::inProcess,
                            WorkloadTable::windowCount)),
            Map.entry(
                    Kind.RESTART,
                    new Entry(
                            "restart a SIGKILLed process: start to first new output",
                            (s, o) -> List.of(restartProcess("weir"), restartProcess("kafka_streams")),
                            WorkloadTable::restart)),
            Map.entry(
                    Kind.MEMORY,
                    new Entry(
                            "a process's peak RSS against its bound",
                            (s, o) -> List.of(MemoryJob.system()),
                            WorkloadTable::memory)),
            Map.entry(
                    Kind.READY,
                    new Entry(
                            "a process with empty state: start to ready",
                            (s, o) -> List.of(readyProcess("weir").withHttpPortPerRun(), readyProcess("kafka_streams")),
                            WorkloadTable::ready)),
            // failover also with Weir's failure detection at 1 s, beside its default (3 s).
            Map.entry(
                    Kind.FAILOVER,
                    new Entry(
                            "SIGKILL one of three instances: kill to new output",
                            (s, o) -> List.of(
                                    scalingProcess("weir"),
                                    scalingProcess("weir")
                                            .variant(
                                                    ChildCountRunner.FAST_DETECTION,
                                                    Map.of("failure.detection.ms", "1000")),
                                    scalingProcess("kafka_streams")),
                            WorkloadTable::failover)),
            Map.entry(
                    Kind.SCALE_OUT,
                    new Entry(
                            "a third instance joins two: start to balanced, longest pause",
                            (s, o) -> List.of(scalingProcess("weir"), scalingProcess("kafka_streams")),
                            WorkloadTable::scaleOut)),
            Map.entry(
                    Kind.SAVEPOINT,
                    new Entry(
                            "a savepoint under live traffic and its restore",
                            (s, o) -> List.of(new WeirRunner()),
                            WorkloadTable::savepoint)),
            Map.entry(
                    Kind.YSB,
                    new Entry(
                            "the Yahoo Streaming Benchmark at a ladder of rates",
                            (s, o) -> List.of(new WeirRunner(), new KafkaStreamsRunner()),
                            WorkloadTable::ysb)),
            Map.entry(Kind.QUERIES, new Entry("key lookups over HTTP", (s, o) -> List.of(), WorkloadTable::queries)),
            Map.entry(
                    Kind.ENRICH,
                    new Entry(
                            "a lookup per record over HTTP, blocking and asynchronous",
                            (s, o) -> List.of(),
                            WorkloadTable::enrich)),
            Map.entry(
                    Kind.SERDE,
                    new Entry(
                            "Avro records through the registry serde and through Avro's own coding",
                            (s, o) -> List.of(),
                            WorkloadTable::serde))));

    private WorkloadTable() {}

    /** The line of {@code kind}. */
    static Entry of(Kind kind) {
        Entry entry = TABLE.get(kind);
        if (entry == null) {
            throw new IllegalStateException("no line in the workload table for " + kind);
        }
        return entry;
    }

    // The systems

    /**
     * The in-process systems: Weir, Kafka Streams and the bare baseline (which only the stateless map
     * and the restore keep); Weir scraped beside Weir if {@code --scrape-metrics-ms} is given, Weir
     * traced if {@code --tracing-sample} is. The
     * HTTP overhead runs Weir without HTTP, with HTTP idle and scraped, and Kafka Streams; the bounded
     * workload Weir streaming and bounded.
     */
    private static List<SystemUnderTest> inProcess(Scenario scenario, BenchmarkOptions options) {
        if (scenario == Scenario.BOUNDED) {
            return List.of(new WeirRunner(), WeirRunner.bounded());
        }
        if (scenario == Scenario.HTTP_OVERHEAD) {
            return List.of(
                    WeirRunner.withoutHttp(),
                    new WeirRunner(),
                    WeirRunner.scraped(options.scrapeInterval()),
                    new KafkaStreamsRunner());
        }
        List<SystemUnderTest> systems = new ArrayList<>();
        systems.add(new WeirRunner());
        options.explicitScrapeInterval().ifPresent(i -> systems.add(WeirRunner.scraped(i)));
        options.tracingSample().ifPresent(r -> {
            systems.add(WeirRunner.traced(r));
            systems.add(WeirRunner.tracedAtRoots(r));
        });
        systems.add(new KafkaStreamsRunner());
        systems.add(new BareLoop());
        return List.copyOf(systems);
    }

    /** Both ways of restoring Weir, in one run: by ingestion (the default) and by write batches. */
    private static List<SystemUnderTest> restoring(Scenario scenario, BenchmarkOptions options) {
        List<SystemUnderTest> systems = new ArrayList<>(inProcess(scenario, options));
        systems.add(1, WeirRunner.batchRestore());
        return systems;
    }

    /**
     * The restart workload's process of {@code system}: the same heap for both, the same session
     * timeout (Weir's default, 10 s), and a fixed identity so that the restarted process is the same
     * static group member and (exactly-once) the same transactional producer as the killed one: Weir's
     * {@code instance.id}; Kafka Streams' {@code group.instance.id} (it appends the thread index) and
     * its process id, which it keeps in the state directory.
     */
    private static SystemUnderTest restartProcess(String system) {
        String session = Long.toString(SESSION_TIMEOUT.toMillis());
        Map<String, String> settings = system.equals("weir")
                ? Map.of("instance.id", RESTART_INSTANCE_ID, "consumer.session.timeout.ms", session)
                : Map.of(
                        StreamsConfig.mainConsumerPrefix(ConsumerConfig.GROUP_INSTANCE_ID_CONFIG),
                        RESTART_INSTANCE_ID,
                        StreamsConfig.mainConsumerPrefix(ConsumerConfig.SESSION_TIMEOUT_MS_CONFIG),
                        session);
        return new ChildCountRunner(system, CHILD_JVM, settings);
    }

    /**
     * The start-to-ready workload's process of {@code system}: the restart workload's JVM, and
     * otherwise the count topology exactly as in {@code count-1m}.
     */
    private static ChildCountRunner readyProcess(String system) {
        return new ChildCountRunner(system, CHILD_JVM, Map.of());
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
    private static ChildCountRunner scalingProcess(String system) {
        return new ChildCountRunner(
                system,
                CHILD_JVM,
                Map.of(
                        "num.standby.replicas",
                        "1",
                        "consumer." + ConsumerConfig.SESSION_TIMEOUT_MS_CONFIG,
                        Long.toString(SESSION_TIMEOUT.toMillis())));
    }

    // The plans

    /** Map and count: a warm-up input and the main one. */
    private static boolean processing(Workbench b) {
        Scenario scenario = b.scenario();
        BenchmarkOptions options = b.options();
        if (options.warmupRecords() > 0) {
            // Only the warm-up input (and a main input the previous workload left) is kept meanwhile.
            InputTopic warmup = b.inputs().only(options.warmupRecords(), scenario.distinctKeys(), options.records());
            b.warmUp(new ProcessingJob(b.client().admin(), scenario, warmup, b.verifier()));
        }
        // The warm-up input is deleted to free the broker's disk.
        InputTopic input = b.inputs().only(options.records(), scenario.distinctKeys());
        return b.measureAndSummarize(new ProcessingJob(b.client().admin(), scenario, input, b.verifier()));
    }

    /** As for map and count, with windowed inputs: a warm-up input and the main one. */
    private static boolean windowCount(Workbench b) {
        Scenario scenario = b.scenario();
        BenchmarkOptions options = b.options();
        if (options.warmupRecords() > 0) {
            WindowedInput warmup =
                    b.inputs().windowed(options.warmupRecords(), scenario.distinctKeys(), options.records());
            b.warmUp(ProcessingJob.windowed(b.client().admin(), scenario, warmup, b.verifier()));
        }
        WindowedInput input = b.inputs().windowed(options.records(), scenario.distinctKeys());
        return b.measureAndSummarize(ProcessingJob.windowed(b.client().admin(), scenario, input, b.verifier()));
    }

    private static boolean restore(Workbench b) {
        InputTopic empty = b.inputs().only(0, b.scenario().distinctKeys());
        if (b.options().restoreWarmupKeys() > 0) {
            b.warmUp(new RestoreJob(
                    b.inputs().workload(), b.scenario(), empty, b.options().restoreWarmupKeys()));
        }
        return b.measureAndSummarize(new RestoreJob(
                b.inputs().workload(), b.scenario(), empty, b.options().restoreKeys()));
    }

    /** Each run starts fresh processes, so there is no JIT to warm up; each writes its own input. */
    private static boolean restart(Workbench b) {
        b.inputs().deleteAll();
        return b.measureAndSummarize(new RestartJob(
                b.client(),
                b.inputs().workload(),
                b.scenario(),
                b.options().keys(b.scenario()),
                b.options().restartTrickle()));
    }

    /**
     * Fresh processes too, on an empty input of their own; one unreported run of each first warms the
     * operating system's file cache (the JVM and the class path's JARs).
     */
    private static boolean ready(Workbench b) {
        ReadyJob job = new ReadyJob(b.client(), b.scenario());
        b.warmUp(job);
        return b.measureAndSummarize(job);
    }

    /**
     * Groups of fresh processes, each run on an input of its own; the run timeout also bounds the
     * wait for a rebalance that settles the group.
     */
    private static boolean failover(Workbench b) {
        b.inputs().deleteAll();
        long keys = b.options().keys(b.scenario());
        return b.measureAndSummarize(
                new FailoverJob(
                        b.client(),
                        b.inputs().workload(),
                        b.scenario(),
                        keys,
                        b.options().rate()),
                b.options().runTimeout(keys, FAILOVER_ALLOWANCE));
    }

    private static boolean scaleOut(Workbench b) {
        b.inputs().deleteAll();
        long keys = b.options().keys(b.scenario());
        return b.measureAndSummarize(
                new ScaleOutJob(
                        b.client(),
                        b.inputs().workload(),
                        b.scenario(),
                        keys,
                        b.options().rate()),
                b.options().runTimeout(keys, ScaleOutJob.BALANCE_ALLOWANCE));
    }

    /**
     * One application in this JVM, on an input of its own; the timeout also bounds loading its state,
     * the baseline, and (off the clock) the restore into a new application.
     */
    private static boolean savepoint(Workbench b) {
        b.inputs().deleteAll();
        long keys = b.options().keys(b.scenario());
        return b.measureAndSummarize(
                new SavepointJob(
                        b.client(),
                        b.inputs().workload(),
                        b.scenario(),
                        keys,
                        b.options().rate()),
                b.options().runTimeout(keys, SAVEPOINT_ALLOWANCE));
    }

    /** One run: one peak against one bound; the workload is long and its figure is not a median (no summary). */
    private static boolean memory(Workbench b) {
        b.inputs().deleteAll();
        MemoryJob job = new MemoryJob(
                b.client(), b.inputs().workload(), b.scenario(), b.options().keys(b.scenario()));
        return Workbench.allOk(b.measure(job, b.options().runTimeout(job.records()), 1));
    }

    /**
     * Per rate of the ladder, each configuration once (the order rotated by one per rate), each run
     * its own warm-up ({@link YsbJob}); then the summary. Falling behind is a result, not a failure:
     * only a run that could not be carried out fails.
     */
    private static boolean ysb(Workbench b) {
        BenchmarkOptions.Ysb ladder = b.options().ysb();
        List<Workbench.Configuration> configurations = b.configurations();
        List<RunResult> results = new ArrayList<>();
        for (int step = 0; step < ladder.rates().size(); step++) {
            YsbJob job = new YsbJob(
                    b.client(),
                    b.scenario(),
                    ladder.rates().get(step),
                    ladder.warmup(),
                    ladder.measured(),
                    ladder.drain());
            RunExecutor executor = new RunExecutor(b.client(), job, job.timeout());
            for (int i = 0; i < configurations.size(); i++) {
                Workbench.Configuration c = configurations.get((i + step) % configurations.size());
                RunResult result = executor.execute(c.system(), c.guarantee(), step + 1);
                b.report().run(result);
                results.add(result);
            }
        }
        b.report().ysbSummary(results);
        return Workbench.allOk(results);
    }

    /**
     * The enrichment job in each system at each latency ({@link EnrichBench}, which reports its own
     * lines); {@code --systems} picks among its systems.
     */
    private static boolean enrich(Workbench b) {
        return new EnrichBench(b.client(), b.report(), b.options().enrich(), b.options()::runs).run();
    }

    /** The registry serde beside Avro's own coding ({@link SerdeBench}), which reports its own lines. */
    private static boolean serde(Workbench b) {
        return new SerdeBench(b.report(), b.options().records(), b.options().runs()).run();
    }

    /** Two Weir instances asked for keys over HTTP ({@link QueryBench}), which reports its own lines. */
    private static boolean queries(Workbench b) {
        try {
            return new QueryBench(
                            b.client(),
                            b.report(),
                            (int) b.options().keys(b.scenario()),
                            Duration.ofSeconds(5),
                            Duration.ofSeconds(20))
                    .run();
        } catch (Exception e) {
            log.error("queries failed: {}", e.toString(), e);
            if (e instanceof InterruptedException) {
                Thread.currentThread().interrupt();
            }
            return false;
        }
    }
}
