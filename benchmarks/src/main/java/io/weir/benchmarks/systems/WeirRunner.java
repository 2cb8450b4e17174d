package io.weir.benchmarks.systems;

import io.micrometer.core.instrument.Counter;
import io.weir.Topology;
import io.weir.TopologyBuilder;
import io.weir.WeirApp;
import io.weir.benchmarks.KafkaClients;
import io.weir.benchmarks.RunSpec;
import io.weir.benchmarks.Scenario;
import io.weir.benchmarks.SystemUnderTest;
import io.weir.benchmarks.ysb.YsbTopology;
import io.weir.config.WeirConfig;
import io.weir.dsl.Emit;
import io.weir.dsl.RecordStream;
import io.weir.dsl.TimeWindows;
import io.weir.internal.cluster.topics.InternalTopics;
import io.weir.internal.metrics.WeirMeter;
import io.weir.internal.topology.TopologyAccess;
import io.weir.serde.Serdes;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import org.apache.kafka.clients.admin.Admin;

/**
 * The workloads in Weir, with byte-array serdes, one stream thread, {@code exactly_once} or
 * {@code at_least_once}, and the shared producer and consumer settings passed with the
 * {@code producer.} and {@code consumer.} prefixes. State settings ({@code state.cache.max.bytes},
 * {@code rocksdb.memory.bytes}) keep their defaults. {@code WEIR_*} environment variables are
 * ignored, so the shell cannot change what is measured. {@link #WeirRunner(Map)} adds settings on top
 * (the child processes of the restart, memory and scaling workloads: {@code instance.id},
 * {@code rocksdb.memory.bytes}, ...). The HTTP endpoints listen on a free port ({@code http.port=0});
 * {@link #WeirRunner(String, Map, Optional)} names a variant, e.g. one without HTTP
 * ({@code http.port=-1}) or one whose {@code /metrics} a {@link MetricsScraper} scrapes while it runs
 * (the http-overhead workload, {@code --scrape-metrics-ms}).
 *
 * <ul>
 *   <li>map: {@code stream → mapValues → to};</li>
 *   <li>count: {@code stream → groupByKey → count("counts") → toStream → to}, long values;</li>
 *   <li>restore: {@code stream → groupByKey → reduce((a, b) -> b, "latest") → toStream → to}; the
 *       restored records are read from the meter {@code weir.restore.records}.</li>
 *   <li>windowed count: {@code stream → groupByKey → windowedBy(TimeWindows.of(10 s)) →
 *       emit(Emit.onWindowClose()) → count("counts") → to}, keys {@code Serdes.windowed(bytes)},
 *       long values; {@code max.out.of.orderness.ms=0} (the default, set so that it stays so).</li>
 *   <li>ysb: {@link YsbTopology#weir}, {@code max.out.of.orderness.ms=0} too (each partition's event
 *       times are in order: one generator stamps them as it sends).</li>
 * </ul>
 */
public final class WeirRunner implements SystemUnderTest {

    /** What stopped {@code app}, if anything: its failure, or its FAILED state. */
    public static Optional<Throwable> failureOf(WeirApp app) {
        Optional<Throwable> f = app.failure();
        if (f.isEmpty() && app.state() == WeirApp.State.FAILED) {
            return Optional.of(new IllegalStateException("Weir is in state FAILED"));
        }
        return f;
    }

    /** The name of the variant without HTTP endpoints ({@code http.port=-1}). */
    public static final String NO_HTTP = "weir_no_http";
    /** The name of the variant that runs bounded ({@code run.mode=bounded}). */
    public static final String BOUNDED = "weir_bounded";
    /** The name of the variant whose {@code /metrics} is scraped while it runs. */
    public static final String SCRAPED = "weir_scraped";
    /** The name of the variant traced with OpenTelemetry at a sampled fraction ({@link #traced}). */
    public static final String TRACED = "weir_traced";
    /** The name of the variant whose traces Weir picks at the root ({@link #tracedAtRoots}). */
    public static final String TRACED_ROOT = "weir_traced_root";
    /** The name of {@link #batchRestore()} in the results. */
    public static final String BATCHES = "weir_batches";

    private static final Duration CLOSE_TIMEOUT = Duration.ofSeconds(30);

    private final String name;
    private final Map<String, Object> extraSettings;
    private final Optional<Duration> scrapeInterval;
    /** The run's own OpenTelemetry SDK; empty: not traced. */
    private Optional<java.util.function.Supplier<io.opentelemetry.sdk.OpenTelemetrySdk>> tracing = Optional.empty();

    public WeirRunner() {
        this(Map.of());
    }

    /** With Weir settings applied after (and over) the benchmark's. */
    WeirRunner(Map<String, Object> extraSettings) {
        this("weir", extraSettings, Optional.empty());
    }

    /**
     * A variant named {@code name} in the results, with {@code extraSettings} applied after (and
     * over) the benchmark's, and its {@code /metrics} scraped every {@code scrapeInterval} from
     * start to close, if given (the scrape counts are the run's {@link Running#details()}).
     */
    WeirRunner(String name, Map<String, Object> extraSettings, Optional<Duration> scrapeInterval) {
        this.name = name;
        this.extraSettings = Map.copyOf(extraSettings);
        this.scrapeInterval = scrapeInterval;
    }

    /** Weir without HTTP endpoints ({@code http.port=-1}), named {@value #NO_HTTP}. */
    public static WeirRunner withoutHttp() {
        return new WeirRunner(NO_HTTP, Map.of("http.port", -1), Optional.empty());
    }

    /**
     * Weir as a bounded run ({@code run.mode=bounded}), named {@value #BOUNDED}: it stops by itself
     * once its input is processed to the end offsets it took at start; the benchmark times it like the
     * streaming run, from outside (committed offsets and output), and {@code runBounded()} runs on a
     * thread of its own meanwhile.
     */
    public static WeirRunner bounded() {
        return new WeirRunner(BOUNDED, Map.of("run.mode", "bounded"), Optional.empty());
    }

    /**
     * Weir restoring with write batches only ({@code restore.bulk.min.records=0}), named
     * {@value #BATCHES}: {@code restore-1m}'s other way, beside the default bulk load by ingestion.
     */
    public static WeirRunner batchRestore() {
        return new WeirRunner(BATCHES, Map.of("restore.bulk.min.records", 0), Optional.empty());
    }

    /**
     * Weir traced by an OpenTelemetry SDK that samples {@code ratio} of the traces and drops the
     * spans it exports ({@link TracingSdk}), named {@value #TRACED}: the cost of tracing on, beside
     * {@code weir} (tracing off, the no-op).
     */
    public static WeirRunner traced(double ratio) {
        WeirRunner r = new WeirRunner(TRACED, Map.of(), Optional.empty());
        r.tracing = Optional.of(() -> TracingSdk.sampling(ratio));
        return r;
    }

    /**
     * Weir traced with {@code tracing.root.ratio} = {@code ratio} and an SDK that samples every
     * trace it is asked about, named {@value #TRACED_ROOT}: the same share of traces as
     * {@link #traced}, picked by Weir before the SDK.
     */
    public static WeirRunner tracedAtRoots(double ratio) {
        WeirRunner r = new WeirRunner(TRACED_ROOT, Map.of("tracing.root.ratio", ratio), Optional.empty());
        r.tracing = Optional.of(TracingSdk::samplingAll);
        return r;
    }

    /** Weir with its {@code /metrics} scraped every {@code interval}, named {@value #SCRAPED}. */
    public static WeirRunner scraped(Duration interval) {
        return new WeirRunner(SCRAPED, Map.of(), Optional.of(interval));
    }

    @Override
    public String name() {
        return name;
    }

    /**
     * Weir's internal topics (dead letters, topology record, control, savepoints, liveness) as
     * {@code weir topics create} makes them: an application restoring lost local state has them.
     */
    @Override
    public void prepareExistingApplication(RunSpec spec) {
        WeirConfig config = config(spec);
        try (Admin admin = KafkaClients.admin(spec.bootstrapServers())) {
            InternalTopics.Report report =
                    InternalTopics.create(TopologyAccess.model(topology(spec), config.applicationId()), config, admin);
            if (!report.problems().isEmpty()) {
                throw new IllegalStateException(
                        "internal topics of " + config.applicationId() + ": " + report.problems());
            }
        }
    }

    @Override
    public Running start(RunSpec spec) {
        WeirApp created = WeirApp.create(topology(spec), config(spec));
        io.opentelemetry.sdk.OpenTelemetrySdk sdk =
                tracing.map(java.util.function.Supplier::get).orElse(null);
        if (sdk != null) {
            created.openTelemetry(sdk);
        }
        WeirApp app = created.start();
        if (app.config().bounded()) {
            Thread runner = new Thread(
                    () -> {
                        try {
                            app.runBounded(); // returns once complete, committed and closed; logs the summary
                        } catch (InterruptedException | RuntimeException e) {
                            // failure() reports it: the application records what stopped it
                        }
                    },
                    spec.applicationId() + "-bounded");
            runner.setDaemon(true);
            runner.start();
        }
        MetricsScraper scraper;
        try {
            scraper = scrapeInterval
                    .map(interval -> MetricsScraper.start(httpPort(app), interval))
                    .orElse(null);
        } catch (RuntimeException e) {
            app.close(CLOSE_TIMEOUT);
            throw e;
        }
        return new Running() {
            @Override
            public Optional<Throwable> failure() {
                return failureOf(app);
            }

            /** The sum over stream threads of {@code weir.restore.records}, counted once a batch is in the store. */
            @Override
            public long restoredRecords() {
                return Math.round(app.meterRegistry().find(WeirMeter.RESTORE_RECORDS.meterName()).counters().stream()
                        .mapToDouble(Counter::count)
                        .sum());
            }

            @Override
            public boolean ready() {
                return app.state() == WeirApp.State.RUNNING;
            }

            @Override
            public Map<String, Object> details() {
                return scraper == null ? Map.of() : scraper.details();
            }

            /** Stops the scraper first: no scrape is charged to the close. */
            @Override
            public void close() {
                if (scraper != null) {
                    scraper.close();
                }
                app.close(CLOSE_TIMEOUT);
                if (sdk != null) {
                    sdk.close();
                }
            }
        };
    }

    /** The topology of the run's workload ({@link Scenario#kind()}), reading and writing the run's topics. */
    public static Topology topology(RunSpec spec) {
        if (spec.scenario().kind() == Scenario.Kind.YSB) {
            return YsbTopology.weir(spec);
        }
        TopologyBuilder builder = new TopologyBuilder();
        RecordStream<byte[], byte[]> input = builder.stream(Serdes.bytes(), Serdes.bytes(), spec.inputTopic());
        switch (spec.scenario().kind()) {
            case MAP ->
                input.mapValues((byte[] v) -> ValueTransform.apply(v))
                        .to(spec.outputTopic(), Serdes.bytes(), Serdes.bytes());
            case COUNT, RESTART, MEMORY, READY, FAILOVER, SCALE_OUT, SAVEPOINT ->
                input.groupByKey()
                        .count(Scenario.COUNT_STORE)
                        .toStream()
                        .to(spec.outputTopic(), Serdes.bytes(), Serdes.longs());
            case RESTORE ->
                input.groupByKey()
                        .reduce((a, b) -> b, Scenario.RESTORE_STORE)
                        .toStream()
                        .to(spec.outputTopic(), Serdes.bytes(), Serdes.bytes());
            case WINDOW_COUNT ->
                input.groupByKey()
                        .windowedBy(TimeWindows.of(Scenario.WINDOW_SIZE))
                        .emit(Emit.onWindowClose())
                        .count(Scenario.COUNT_STORE)
                        .to(spec.outputTopic(), Serdes.windowed(Serdes.bytes()), Serdes.longs());
        }
        return builder.build();
    }

    private static int httpPort(WeirApp app) {
        int port = app.httpPort().orElseThrow();
        if (port <= 0) {
            throw new IllegalStateException("cannot scrape /metrics: HTTP is disabled (http.port="
                    + app.config().http().port() + ")");
        }
        return port;
    }

    /** The run's Weir settings: the benchmark's, then this variant's on top. */
    public WeirConfig config(RunSpec spec) {
        WeirConfig.Builder b = WeirConfig.builder()
                .applicationId(spec.applicationId())
                .bootstrapServers(spec.bootstrapServers())
                .set("processing.guarantee", spec.guarantee().label())
                .set("num.stream.threads", 1)
                .set("commit.interval.ms", ClientSettings.COMMIT_INTERVAL.toMillis())
                .set("state.dir", spec.stateDir().toString())
                .set("http.port", 0)
                .environment(Map.of());
        if (spec.scenario().kind() == Scenario.Kind.WINDOW_COUNT
                || spec.scenario().kind() == Scenario.Kind.YSB) {
            b.set("max.out.of.orderness.ms", 0);
        }
        ClientSettings.producer().forEach((k, v) -> b.set("producer." + k, v));
        ClientSettings.consumer().forEach((k, v) -> b.set("consumer." + k, v));
        extraSettings.forEach(b::set);
        return b.build();
    }
}
