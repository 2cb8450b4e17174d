package io.weir.benchmarks.enrich;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.weir.benchmarks.input.Workload;
import io.weir.benchmarks.report.Json;
import io.weir.benchmarks.report.JsonReport;
import io.weir.common.internal.Deadline;
import io.weir.common.internal.KafkaCalls;
import io.weir.testkit.KafkaTestClient;
import io.weir.testkit.LookupService;
import io.weir.testkit.SteadyInput;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.function.Predicate;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.config.TopicConfig;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The {@code enrich} workload: the same enrichment job (read keyed records, call a lookup service
 * with the key, write value and answer) in Kafka Streams and Weir with the blocking call on the
 * stream thread, and in Weir with {@code mapValuesAsync} (Confluent's Parallel Consumer, the peer
 * the issue names, does not run on kafka-clients 4.x: {@link ParallelConsumerAbsence}), against a {@link LookupService} in this JVM answering after a latency (±20% jitter, uniform), at
 * each latency of {@code --enrich-latencies-ms}. All exactly-once, one processing thread, per-key
 * order, one run each (no medians: {@code --runs} does not apply).
 *
 * <p>Per latency, per system: a throughput run over a backlog written beforehand (the synchronous
 * systems' sized to their time budget at one call at a time, the asynchronous ones'
 * {@code --enrich-records} or what their ceiling does in 10 s), then a paced run at half the rate
 * that run measured, for the end-to-end latency against the service's own (the calls' times in the
 * same run). Every run's output is read back {@code read_committed} and checked ({@link OutputWatch}).
 * Each line says what was measured; the summary per latency has the ratios.
 */
public final class EnrichBench {

    private static final Logger log = LoggerFactory.getLogger(EnrichBench.class);

    /** Records of the paced runs written (and processed) before the paced input starts: the start-up. */
    private static final int PACED_LEAD = 20;
    /** The service's jitter: ± this share of the latency, uniform. */
    private static final double JITTER = 0.2;

    private static final Duration SETTLE = Duration.ofSeconds(120);
    private static final Duration CLOSE = Duration.ofSeconds(60);
    private static final Duration DRAIN = Duration.ofSeconds(15);
    /** The unreported warm-up of the fast systems (JIT), at the first latency. */
    private static final long WARMUP_RECORDS = 2000;
    /**
     * The JDK HTTP server closes idle connections beyond 200 by default; with a thousand calls in
     * flight over as many HTTP/1.1 connections the service would close and the client reopen
     * connections all the time. Set before the first server of this JVM starts (the JDK reads it once).
     */
    private static final String SERVER_IDLE_CONNECTIONS = "sun.net.httpserver.maxIdleConnections";

    private final KafkaTestClient client;
    private final JsonReport report;
    private final EnrichOptions options;
    private final Predicate<String> runs;

    /** {@code runs}: whether a system (by its name in the results) runs ({@code --systems}). */
    public EnrichBench(KafkaTestClient client, JsonReport report, EnrichOptions options, Predicate<String> runs) {
        this.client = client;
        this.report = report;
        this.options = options;
        this.runs = runs;
    }

    /** Whether every run succeeded and every output was exact. */
    public boolean run() {
        if (System.getProperty(SERVER_IDLE_CONNECTIONS) == null) {
            System.setProperty(SERVER_IDLE_CONNECTIONS, "20000");
        }
        report.line(ParallelConsumerAbsence.line());
        boolean ok = true;
        boolean warm = false;
        for (int latencyMs : options.latenciesMs()) {
            Duration latency = Duration.ofMillis(latencyMs);
            Duration jitter = Duration.ofMillis(Math.round(latencyMs * JITTER));
            try (LookupService service = LookupService.start(latency, jitter, options.failureRate())) {
                LookupClient lookups = new LookupClient(service);
                if (!warm) {
                    warmUp(latencyMs, lookups);
                    warm = true;
                }
                ok &= runLatency(latencyMs, lookups);
            }
        }
        return ok;
    }

    private void warmUp(int latencyMs, LookupClient lookups) {
        for (EnrichSystem s : List.of(WeirEnrich.async(options.inFlight().get(0)))) {
            if (runs.test(s.name())) {
                log.info("enrich: warm-up of {} ({} records at {} ms)", s.name(), WARMUP_RECORDS, latencyMs);
                Measured m = throughput(s, latencyMs, lookups, WARMUP_RECORDS, "warm-up");
                if (m.error().isPresent()) {
                    log.warn(
                            "enrich: warm-up of {} failed: {}",
                            s.name(),
                            m.error().get());
                }
            }
        }
    }

    /** Every system at one latency: throughput runs, the bound sweep, paced runs, the summary. */
    private boolean runLatency(int latencyMs, LookupClient lookups) {
        int bound = options.inFlight().get(0);
        List<EnrichSystem> systems = new ArrayList<>();
        systems.add(WeirEnrich.async(bound));
        systems.add(WeirEnrich.sync());
        systems.add(new KafkaStreamsEnrich());
        systems.removeIf(s -> !runs.test(s.name()));
        boolean ok = true;
        Map<String, Measured> measured = new LinkedHashMap<>();
        for (EnrichSystem s : systems) {
            long records = s.synchronous() ? options.syncRecords(latencyMs) : options.asyncRecords(latencyMs, bound);
            String input = s.synchronous()
                    ? "sized to the time budget: " + options.syncBudget().toSeconds() + " s x 1000 / latency_ms"
                    : records == options.records()
                            ? "--enrich-records"
                            : EnrichOptions.ASYNC_SECONDS_AT_CEILING + " s at the ceiling";
            Measured m = throughput(s, latencyMs, lookups, records, input);
            report.line(m.line());
            measured.put(s.name(), m);
            ok &= m.ok();
        }
        if (runs.test(WeirEnrich.ASYNC)) {
            for (int extra : options.inFlight().subList(1, options.inFlight().size())) {
                long records = options.asyncRecords(latencyMs, extra);
                Measured m = throughput(WeirEnrich.async(extra), latencyMs, lookups, records, "in-flight sweep");
                report.line(m.line());
                ok &= m.ok();
            }
        }
        Map<String, Measured> paced = new LinkedHashMap<>();
        if (!options.paced().isZero()) {
            for (EnrichSystem s : systems) {
                Measured full = measured.get(s.name());
                if (!full.ok() || Double.isNaN(full.result().rps())) {
                    continue;
                }
                int rate = (int) Math.max(1, Math.round(full.result().rps() / 2));
                Measured m = paced(s, latencyMs, lookups, rate);
                report.line(m.line());
                paced.put(s.name(), m);
                ok &= m.ok();
            }
        }
        report.line(EnrichSummary.line(latencyMs, bound, options.failureRate(), measured, paced));
        return ok;
    }

    /** A run over a backlog of {@code records} written before the system starts. */
    private Measured throughput(EnrichSystem system, int latencyMs, LookupClient lookups, long records, String input) {
        Topics topics = topics(system, latencyMs);
        EnrichRecords.write(client.bootstrapServers(), topics.input(), records);
        Duration timeout = system.synchronous()
                ? SETTLE.plus(Duration.ofMillis(3 * records * latencyMs))
                : SETTLE.plus(Duration.ofMillis(records)); // at least 1,000 records a second
        return execute(system, latencyMs, lookups, topics, records, 0, timeout, () -> {})
                .with("throughput", input, 0);
    }

    /**
     * A run at {@code rate} records a second for {@code --enrich-paced-seconds}, after
     * {@value #PACED_LEAD} records written beforehand have gone through (the system is running);
     * the latencies are those of the paced records.
     */
    private Measured paced(EnrichSystem system, int latencyMs, LookupClient lookups, int rate) {
        Topics topics = topics(system, latencyMs);
        SteadyInput.Generator generator = EnrichRecords.generator();
        try (KafkaProducer<byte[], byte[]> producer =
                io.weir.benchmarks.KafkaClients.inputProducer(client.bootstrapServers())) {
            for (long n = 0; n < PACED_LEAD; n++) {
                var r = generator.record(n);
                producer.send(new ProducerRecord<>(topics.input(), r.key(), r.value()));
            }
            producer.flush();
        }
        long paced = Math.max(1, rate * options.paced().toSeconds());
        long records = PACED_LEAD + paced;
        SteadyInput[] steady = new SteadyInput[1];
        Duration timeout = SETTLE.plus(options.paced()).plus(options.paced());
        Measured m = execute(system, latencyMs, lookups, topics, records, PACED_LEAD, timeout, () -> {
            if (steady[0] == null) {
                steady[0] = SteadyInput.start(
                        client.bootstrapServers(),
                        topics.input(),
                        n -> generator.record(n + PACED_LEAD),
                        rate,
                        paced,
                        options.paced().plus(SETTLE));
            }
        });
        if (steady[0] != null) {
            steady[0].close();
        }
        return m.with("paced", "offered " + rate + " records/s, half the throughput run's", rate);
    }

    private record Topics(String applicationId, String input, String output) {}

    private Topics topics(EnrichSystem system, int latencyMs) {
        String id = "bench-enrich-" + system.name().replace('_', '-') + "-" + latencyMs + "ms-"
                + UUID.randomUUID().toString().substring(0, 8);
        Workload.createTopic(client, id + "-in", Workload.PARTITIONS, Map.of());
        Workload.createTopic(
                client,
                id + "-out",
                Workload.PARTITIONS,
                Map.of(TopicConfig.MESSAGE_TIMESTAMP_TYPE_CONFIG, "LogAppendTime"));
        return new Topics(id, id + "-in", id + "-out");
    }

    /**
     * Starts {@code system}, reads its output until all {@code records} inputs are there (or the
     * timeout, or a failure), calling {@code onRunning} once the first output is seen, stops it, reads
     * the rest and checks it.
     */
    private Measured execute(
            EnrichSystem system,
            int latencyMs,
            LookupClient lookups,
            Topics topics,
            long records,
            long latencyFrom,
            Duration timeout,
            Runnable onRunning) {
        log.info("enrich: {} at {} ms, {} records ({})", system.name(), latencyMs, records, topics.input());
        Path state = null;
        Optional<String> error = Optional.empty();
        OutputWatch.Result result = null;
        lookups.snapshot(); // reset
        try (OutputWatch watch = new OutputWatch(
                client.bootstrapServers(), topics.output(), Workload.PARTITIONS, records, latencyFrom)) {
            state = Files.createTempDirectory(topics.applicationId());
            var running = system.start(new EnrichSystem.Run(
                    client.bootstrapServers(),
                    topics.applicationId(),
                    topics.input(),
                    topics.output(),
                    state,
                    lookups));
            try {
                Deadline deadline = Deadline.after(timeout);
                if (latencyFrom > 0) {
                    watch.awaitFirst(latencyFrom, deadline, running::failure);
                    onRunning.run();
                }
                if (!watch.awaitAll(deadline, running::failure)) {
                    error = Optional.of(running.failure()
                            .map(f -> "failed: " + f)
                            .orElse("not every input in the output within " + Deadline.format(timeout)));
                }
            } finally {
                running.close();
            }
            watch.drain(DRAIN);
            result = watch.result();
        } catch (Exception e) {
            log.error("enrich: {} at {} ms failed", system.name(), latencyMs, e);
            error = Optional.of(e.toString());
        } finally {
            deleteQuietly(state);
            deleteTopics(topics);
        }
        return new Measured(system, latencyMs, records, result, lookups.snapshot(), error, "", "", 0);
    }

    private void deleteTopics(Topics topics) {
        try {
            KafkaCalls.get(
                    client.admin()
                            .deleteTopics(List.of(topics.input(), topics.output()))
                            .all(),
                    Duration.ofSeconds(30),
                    "delete the topics of " + topics.applicationId());
        } catch (RuntimeException e) {
            log.debug("could not delete the topics of {}: {}", topics.applicationId(), e.toString());
        }
    }

    private static void deleteQuietly(Path dir) {
        if (dir == null) {
            return;
        }
        try (var paths = Files.walk(dir)) {
            paths.sorted(java.util.Comparator.reverseOrder())
                    .forEach(p -> p.toFile().delete());
        } catch (IOException e) {
            log.debug("could not delete {}: {}", dir, e.toString());
        }
    }

    /** One run: what was measured, and its line. */
    record Measured(
            EnrichSystem system,
            int latencyMs,
            long records,
            OutputWatch.Result result,
            LookupClient.Snapshot calls,
            Optional<String> error,
            String phase,
            String input,
            int offeredRps) {

        Measured with(String phase, String input, int offeredRps) {
            return new Measured(system, latencyMs, records, result, calls, error, phase, input, offeredRps);
        }

        boolean ok() {
            return error.isEmpty() && result != null && result.ok();
        }

        /** The in-flight ceiling: the bound over the mean latency, records a second. */
        double ceilingRps() {
            return system.inFlightBound() * 1000.0 / latencyMs;
        }

        /**
         * The ceiling at the calls' mean time as the client saw it in this run (the service's latency
         * plus what the loaded machine added to each call): how well the bound was kept full.
         */
        double observedCeilingRps() {
            return system.inFlightBound() * 1000.0 / calls.meanCallMs();
        }

        ObjectNode line() {
            ObjectNode line = Json.MAPPER
                    .createObjectNode()
                    .put("workload", "enrich")
                    .put("guarantee", "exactly_once")
                    .put("system", system.name())
                    .put("phase", phase)
                    .put("latency_ms", latencyMs)
                    .put("records", records)
                    .put("input", input);
            if (offeredRps > 0) {
                line.put("offered_rps", offeredRps);
            }
            line.put("in_flight_bound", system.inFlightBound());
            if (system instanceof WeirEnrich w && !w.synchronous()) {
                line.put("in_flight_per_task", w.perTask());
            }
            EnrichSummary.put(line, "ceiling_rps", ceilingRps(), 0);
            EnrichSummary.put(line, "observed_ceiling_rps", observedCeilingRps(), 0);
            if (result != null) {
                EnrichSummary.put(line, "seconds", result.seconds(), 3);
                EnrichSummary.put(line, "rps", result.rps(), 0);
                EnrichSummary.put(line, "rps_vs_ceiling", result.rps() / ceilingRps(), 3);
                EnrichSummary.put(line, "rps_vs_observed_ceiling", result.rps() / observedCeilingRps(), 3);
                EnrichSummary.put(line, "p50_ms", percentile(result.appendMs(), 50), 1);
                EnrichSummary.put(line, "p99_ms", percentile(result.appendMs(), 99), 1);
                EnrichSummary.put(line, "visible_p50_ms", percentile(result.visibleMs(), 50), 1);
                EnrichSummary.put(line, "visible_p99_ms", percentile(result.visibleMs(), 99), 1);
            }
            line.put("calls", calls.calls());
            line.put("failed_calls", calls.failures());
            EnrichSummary.put(line, "call_mean_ms", calls.meanCallMs(), 2);
            EnrichSummary.put(line, "call_p50_ms", calls.callMs(50), 2);
            EnrichSummary.put(line, "call_p99_ms", calls.callMs(99), 2);
            EnrichSummary.put(line, "in_flight_observed_mean", calls.meanInFlight(), 1);
            line.put("in_flight_observed_max", calls.maxInFlight());
            if (result != null) {
                EnrichSummary.put(line, "cpu_seconds_per_million", result.cpuSecondsPerMillion(), 2);
                EnrichSummary.put(line, "jvm_cores", result.jvmCores(), 2);
                EnrichSummary.put(line, "machine_busy", result.machineBusy(), 2);
                line.put("outputs", result.distinct())
                        .put("duplicates", result.duplicates())
                        .put("missing", result.missing())
                        .put("wrong", result.wrong())
                        .put("out_of_order", result.outOfOrder())
                        .put(
                                "exactly_once",
                                result.distinct() == result.expected()
                                        && result.duplicates() == 0
                                        && result.missing() == 0
                                        && result.wrong() == 0)
                        .put("order_kept", result.outOfOrder() == 0);
            }
            error.ifPresent(e -> line.put("error", e));
            return line;
        }

        private static double percentile(org.HdrHistogram.Histogram h, double p) {
            return h.getTotalCount() == 0 ? Double.NaN : h.getValueAtPercentile(p);
        }
    }
}
