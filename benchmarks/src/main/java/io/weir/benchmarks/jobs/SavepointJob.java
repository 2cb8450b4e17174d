package io.weir.benchmarks.jobs;

import io.weir.benchmarks.RunExecutor;
import io.weir.benchmarks.RunSpec;
import io.weir.benchmarks.Scenario;
import io.weir.benchmarks.SystemUnderTest;
import io.weir.benchmarks.input.InputTopic;
import io.weir.benchmarks.input.Workload;
import io.weir.benchmarks.systems.WeirRunner;
import io.weir.benchmarks.verification.CompletionProbe;
import io.weir.benchmarks.verification.OutputPauseWatch;
import io.weir.benchmarks.verification.PauseTracker;
import io.weir.common.internal.Deadline;
import io.weir.common.internal.Poll;
import io.weir.config.WeirConfig;
import io.weir.internal.savepoint.Manifest;
import io.weir.internal.savepoint.SavepointCatalog;
import io.weir.internal.savepoint.SavepointRequest;
import io.weir.internal.savepoint.SavepointRestore;
import io.weir.internal.topology.TopologyAccess;
import io.weir.testkit.KafkaTestClient;
import io.weir.testkit.SteadyInput;
import java.nio.file.Files;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A savepoint of 1,000,000 keys (the savepoint workload) and its restore into a new application.
 * Weir only: Kafka Streams has no savepoints (its reset tool rewinds offsets and rebuilds state by
 * reprocessing), so the run lines say {@code "peer": null}.
 *
 * <p>Off the clock ({@link #prepare}): the count topology runs in this JVM ({@link WeirRunner}) on an
 * input of its own holding each of {@code keys} distinct keys once, until its committed offsets
 * reach the input's end (the store holds {@code keys} entries); then live traffic of {@code rate}
 * records a second starts ({@link SteadyInput}, the same keys), an {@link OutputPauseWatch} follows
 * the committed output, and the application runs under the traffic for {@link #BASELINE} after
 * {@link #WATCH_SETTLE}: the longest gap then is {@code baseline_max_pause_seconds}.
 *
 * <p>On the clock: {@link #await} first waits for output on every partition after the executor's
 * {@code System.gc()} (which pauses the application too, as it runs in this JVM) and then takes a
 * savepoint through the control topic ({@link SavepointRequest}, as {@code weir savepoint create}
 * does); the run's {@code seconds} are from the call to the manifest written, the wait left out.
 * The cut (request written → every task paused at a commit, {@code cut_ms}) and the total
 * ({@code total_ms}, request written → manifest written) are the figures the request's listener
 * prints; the copy is the span between them. The traffic goes on for
 * {@link #AFTER} past the manifest, and the longest gap in the committed output of any partition
 * from the request to then is the processing pause (beside the longest gap of the baseline).
 *
 * <p>Off the clock again, in {@link #await} after the clock stopped: the traffic stops; the savepoint
 * is restored into a new application id ({@code <id>-fork}, {@link SavepointRestore}, as
 * {@code weir savepoint restore} does: recreate its internal topics, write the stores' entries into
 * its changelogs, commit the input offsets), and the new application starts with an empty state
 * directory; the time until it reports every entry restored ({@code weir.restore.records}) and until
 * it is {@code RUNNING}.
 *
 * <p>Run details: {@code rate}, {@code entries}, {@code bytes} (keys and values, uncompressed),
 * {@code cut_ms}, {@code total_ms}, {@code copy_seconds}, {@code write_rps} (entries a second of the copy),
 * {@code write_mb_per_s}, {@code baseline_max_pause_seconds}, {@code max_pause_seconds},
 * {@code restore_step_seconds} and {@code restore_step_rps} (the CLI's restore step),
 * {@code restore_seconds}, {@code restore_rps} (start of the new application → every entry
 * restored), {@code restored_running_seconds}, {@code restore_vs_write} ({@code restore_rps} over
 * {@code write_rps}), {@code load_seconds}, {@code peer} (null) and {@code peer_note}.
 */
public final class SavepointJob extends KeyedJob {

    private static final Logger log = LoggerFactory.getLogger(SavepointJob.class);

    /** After the watch starts, before the baseline: its first receptions are not gaps. */
    static final Duration WATCH_SETTLE = Duration.ofSeconds(2);
    /** How long the application runs under traffic before the savepoint: the usual gaps. */
    static final Duration BASELINE = Duration.ofSeconds(10);
    /** How long the output is watched past the manifest (the copy's load may slow processing). */
    static final Duration AFTER = Duration.ofSeconds(3);

    private static final Duration POLL = Duration.ofMillis(5);
    /** How often a failure of the application or the traffic is looked for while time passes on purpose. */
    private static final Duration RUN_CHECK = Duration.ofMillis(50);

    private static final Pattern CUT = Pattern.compile("cut complete: .* (\\d+) ms after the request");
    private static final Pattern COMPLETE = Pattern.compile("savepoint .* complete: .* (\\d+) ms after the request");
    public static final String PEER_NOTE = "Kafka Streams has no savepoints: its reset tool rewinds input offsets and"
            + " rebuilds state by reprocessing; there is no peer figure";

    private final int rate;
    private Run current;

    public SavepointJob(KafkaTestClient client, Workload workload, Scenario scenario, long keys, int rate) {
        super(client, workload, scenario, Scenario.Kind.SAVEPOINT, keys);
        this.rate = rate;
    }

    @Override
    public void prepare(RunSpec spec, SystemUnderTest system, Duration timeout) throws Exception {
        if (!(system instanceof WeirRunner weir)) {
            throw new IllegalArgumentException("the savepoint workload runs Weir only, not " + system.name());
        }
        Run run = new Run(weir);
        current = run;
        Deadline deadline = Deadline.after(timeout);
        long loadStarted = System.nanoTime();
        InputTopic input = workload.createDistinct(spec.inputTopic(), keys);
        run.app = weir.start(spec);
        new CompletionProbe(client.admin(), input, keys)
                .await(spec.applicationId(), spec.outputTopic(), partitions(), run.app, deadline);
        run.loadSeconds = (System.nanoTime() - loadStarted) / 1e9;
        log.info(
                "savepoint: {} keys counted in {} s; live traffic of {} records/s from now",
                keys,
                ScalingJob.round(run.loadSeconds),
                rate);
        run.watch = OutputPauseWatch.start(client.bootstrapServers(), spec.outputTopic(), partitions());
        run.traffic = Workload.liveTraffic(client.bootstrapServers(), spec.inputTopic(), keys, rate);
        runFor(run, WATCH_SETTLE, deadline);
        run.baselineFrom = System.nanoTime();
        runFor(run, BASELINE, deadline);
        run.baselineTo = System.nanoTime(); // before the executor's System.gc(), which pauses this JVM
    }

    /** Nothing to start: the application runs since {@link #prepare}; the savepoint is requested in {@link #await}. */
    @Override
    public SystemUnderTest.Running start(SystemUnderTest system, RunSpec spec) {
        current.handedOver = true;
        return current.app;
    }

    @Override
    public long await(RunSpec spec, SystemUnderTest.Running running, long startedNanos, Deadline deadline)
            throws InterruptedException {
        Run run = current;
        WeirConfig source = run.weir.config(spec);
        SavepointRequest.Listener listener = line -> {
            log.info("savepoint: {}", line);
            Matcher m = CUT.matcher(line);
            if (m.find()) {
                run.cutMs = Long.parseLong(m.group(1));
            }
            Matcher c = COMPLETE.matcher(line);
            if (c.find()) {
                run.totalMs = Long.parseLong(c.group(1));
            }
        };
        // The executor's System.gc() just before the clock paused the application (it runs in this
        // JVM): wait for output on every partition after it, so that its gap ends before the request.
        boolean flowing = Poll.until(
                () -> {
                    run.throwIfFailed();
                    return run.watch.allReceivedSince(startedNanos);
                },
                deadline.remaining(),
                POLL);
        if (!flowing) {
            throw new IllegalStateException("no output on every partition after the garbage collection");
        }
        String id = SavepointRequest.newId();
        long requested = System.nanoTime();
        run.manifest = new SavepointRequest(source, listener)
                .take(id, false, max(deadline.remaining(), Duration.ofNanos(1)), null);
        long written = System.nanoTime();
        runFor(run, AFTER, deadline);
        run.baseline = run.watch.longest(run.baselineFrom, run.baselineTo);
        run.during = run.watch.longest(requested, System.nanoTime());
        run.traffic.close();
        restore(spec, run, source, deadline);
        // The clock counts from the request (take() called) to the manifest written: the wait above
        // for the post-GC output is left out by returning the start plus that span.
        return startedNanos + (written - requested);
    }

    /** Off the clock: the savepoint into {@code <id>-fork}, then that application started until restored. */
    private void restore(RunSpec spec, Run run, WeirConfig source, Deadline deadline) throws InterruptedException {
        String forkId = spec.applicationId() + "-fork";
        RunSpec fork;
        try {
            fork = new RunSpec(
                    scenario(),
                    spec.bootstrapServers(),
                    spec.inputTopic(),
                    forkId + "-out",
                    forkId,
                    spec.guarantee(),
                    Files.createTempDirectory(spec.stateDir(), "fork-"));
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
        Workload.createTopic(client, fork.outputTopic(), partitions(), Map.of());
        WeirConfig target = run.weir.config(fork);
        long stepStarted = System.nanoTime();
        SavepointRestore.Result result = new SavepointRestore(
                        target,
                        TopologyAccess.model(WeirRunner.topology(fork), forkId),
                        line -> log.info("restore: {}", line))
                .restore(new SavepointCatalog(source), run.manifest, new SavepointRestore.Options(false, Map.of()));
        run.stepNanos = System.nanoTime() - stepStarted;
        run.restoredEntries = result.entries();
        long started = System.nanoTime();
        run.fork = run.weir.start(fork);
        long[] restored = {0};
        boolean running = Poll.until(
                () -> {
                    Throwable failure = run.fork.failure().orElse(null);
                    if (failure != null) {
                        throw new IllegalStateException(
                                "the restored application failed after restoring " + restored[0] + " of "
                                        + result.entries() + " entries: " + failure,
                                failure);
                    }
                    long now = System.nanoTime();
                    restored[0] = run.fork.restoredRecords();
                    if (run.restoreNanos < 0 && restored[0] >= result.entries()) {
                        run.restoreNanos = now - started;
                    }
                    if (run.runningNanos < 0 && run.restoreNanos >= 0 && run.fork.ready()) {
                        run.runningNanos = now - started;
                    }
                    return run.restoreNanos >= 0 && run.runningNanos >= 0;
                },
                deadline.remaining(),
                POLL);
        if (!running) {
            throw new IllegalStateException("the restored application timed out after restoring " + restored[0] + " of "
                    + result.entries() + " entries");
        }
    }

    /** Lets the application run under the traffic for {@code duration}, failing if it or the traffic fails. */
    private static void runFor(Run run, Duration duration, Deadline deadline) throws InterruptedException {
        ScalingRun.runFor(duration, deadline, RUN_CHECK, run::throwIfFailed);
    }

    private static Duration max(Duration a, Duration b) {
        return a.compareTo(b) >= 0 ? a : b;
    }

    @Override
    public Map<String, Object> details(RunSpec spec) {
        Run run = current;
        current = null;
        Map<String, Object> d = new LinkedHashMap<>();
        d.put("rate", (long) rate);
        Manifest m = run == null ? null : run.manifest;
        d.put("entries", m == null ? null : m.records());
        d.put("bytes", m == null ? null : m.bytes());
        d.put("cut_ms", run == null || run.cutMs < 0 ? null : run.cutMs);
        d.put("total_ms", run == null || run.totalMs < 0 ? null : run.totalMs);
        // From the cut complete to the manifest written, as the requester reports both (ms after the request).
        Double copy = m == null || run.cutMs < 0 || run.totalMs < 0 ? null : (run.totalMs - run.cutMs) / 1e3;
        d.put("copy_seconds", copy == null ? null : ScalingJob.round(copy));
        d.put("write_rps", copy == null || copy <= 0 ? null : (long) Math.round(m.records() / copy));
        d.put("write_mb_per_s", copy == null || copy <= 0 ? null : Math.round(m.bytes() / copy / 1e4) / 100.0);
        d.put(
                "baseline_max_pause_seconds",
                run == null || run.baseline == null ? null : ScalingJob.round(run.baseline.seconds()));
        d.put("max_pause_seconds", run == null || run.during == null ? null : ScalingJob.round(run.during.seconds()));
        double step = run == null || run.stepNanos < 0 ? Double.NaN : run.stepNanos / 1e9;
        d.put("restore_step_seconds", Double.isNaN(step) ? null : ScalingJob.round(step));
        d.put("restore_step_rps", Double.isNaN(step) ? null : (long) Math.round(run.restoredEntries / step));
        double restore = run == null || run.restoreNanos < 0 ? Double.NaN : run.restoreNanos / 1e9;
        d.put("restore_seconds", Double.isNaN(restore) ? null : ScalingJob.round(restore));
        Long restoreRps = Double.isNaN(restore) ? null : (long) Math.round(run.restoredEntries / restore);
        d.put("restore_rps", restoreRps);
        d.put(
                "restored_running_seconds",
                run == null || run.runningNanos < 0 ? null : ScalingJob.round(run.runningNanos / 1e9));
        Object writeRps = d.get("write_rps");
        d.put(
                "restore_vs_write",
                restoreRps == null || writeRps == null
                        ? null
                        : Math.round(1000.0 * restoreRps / (Long) writeRps) / 1000.0);
        d.put("load_seconds", run == null || Double.isNaN(run.loadSeconds) ? null : ScalingJob.round(run.loadSeconds));
        d.put("peer", null);
        d.put("peer_note", PEER_NOTE);
        if (run != null) {
            run.close();
        }
        return d;
    }

    /** One run's state, from {@link #prepare} to {@link #details}. */
    private static final class Run {
        final WeirRunner weir;
        SystemUnderTest.Running app;
        SystemUnderTest.Running fork;
        OutputPauseWatch watch;
        SteadyInput traffic;
        double loadSeconds = Double.NaN;
        long baselineFrom;
        Manifest manifest;
        /** Whether the executor got {@link #app} from {@link #start}, and so closes it. */
        boolean handedOver;

        long baselineTo;
        long cutMs = -1;
        long totalMs = -1;
        PauseTracker.Pause baseline;
        PauseTracker.Pause during;
        long stepNanos = -1;
        long restoredEntries;
        long restoreNanos = -1;
        long runningNanos = -1;

        Run(WeirRunner weir) {
            this.weir = weir;
        }

        void throwIfFailed() {
            app.failure().ifPresent(f -> {
                throw new IllegalStateException("the application failed: " + f, f);
            });
            if (traffic != null) {
                traffic.failure().ifPresent(f -> {
                    throw new IllegalStateException("the live traffic failed: " + f, f);
                });
            }
            if (watch != null) {
                watch.failure().ifPresent(f -> {
                    throw new IllegalStateException("the output watch failed: " + f, f);
                });
            }
        }

        /**
         * The traffic, the watch and the restored application; the savepoint's application is the
         * run's system, which the executor closes (a run that failed in {@link #prepare} closes it here).
         */
        void close() {
            if (traffic != null) {
                traffic.close();
            }
            if (watch != null) {
                watch.close();
            }
            closeLogged(fork);
            if (!handedOver) {
                closeLogged(app);
            }
        }

        private static void closeLogged(SystemUnderTest.Running running) {
            if (running == null) {
                return;
            }
            try {
                running.close();
            } catch (Exception e) {
                log.warn("closing an application of the savepoint run failed: {}", RunExecutor.describe(e));
            }
        }
    }
}
