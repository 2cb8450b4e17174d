package io.weir.benchmarks.report;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.weir.benchmarks.RunResult;
import io.weir.benchmarks.Scenario;
import io.weir.benchmarks.jobs.QueryBench;
import io.weir.benchmarks.jobs.SavepointJob;
import io.weir.benchmarks.systems.ChildCountRunner;
import io.weir.benchmarks.systems.WeirRunner;
import java.io.PrintStream;
import java.util.List;
import java.util.OptionalDouble;

/**
 * Writes results as JSON lines to the given stream (stdout), one object per line, flushed at once
 * so a reader can follow a long benchmark. Fields keep a fixed order. Throughput is rounded to
 * whole records per second, seconds to milliseconds, ratios to three decimals. For the restore
 * workload, {@code records} are restored records and {@code rps}, {@code weir_rps} and
 * {@code kafka_streams_rps} restored records per second, and {@code bare_rps} changelog records
 * read per second by a plain consumer ({@code BareRestore}). Workloads without a bare baseline (all
 * but {@code stateless-map} and {@code restore-1m}) have no {@code bare_rps} and
 * {@code weir_vs_bare} fields in their summary.
 *
 * <p>The bounded workload's summary has {@code weir_bounded_rps} and {@code weir_bounded_vs_weir}
 * (a bounded run of Weir over a streaming run's records per second) beside {@code weir_rps}.
 *
 * <p>Where the workload reports CPU ({@link Scenario#reportsCpu()}: every workload that processes
 * or restores a topic), a run has {@code cpu_seconds} and {@code cpu_s_per_m_records} (CPU seconds
 * per million records), and the summary each system's median of both, with a CPU ratio beside
 * every rate ratio: {@code weir_vs_kafka_streams} and {@code weir_cpu_vs_kafka_streams} (Weir's
 * CPU per record over Kafka Streams': below 1, Weir pays less), and so on.
 *
 * <p>A run's details (its CPU figures, a
 * scraped Weir's scrape counts, the job's) follow {@code rps}. Where the Weir variants of the
 * http-overhead workload ran ({@code weir_no_http}, {@code weir_scraped}), the summary has their
 * medians, their ratios ({@code weir_vs_weir_no_http}, {@code weir_scraped_vs_weir}, with
 * {@code --tracing-sample} {@code weir_traced_rps}, {@code weir_traced_vs_weir} and the same of
 * {@code weir_traced_root} (the share picked by {@code tracing.root.ratio}),
 * {@code weir_scraped_vs_weir_no_http}), and the scrapes (interval, median scrapes per run, median size of one scrape in
 * bytes, median over runs of a run's median scrape duration, failures over all runs).
 *
 * <p>The restart, memory and start-to-ready workloads have lines of their own: a restart run has
 * {@code keys} instead of {@code records}, {@code seconds} (start to first new output) and the
 * job's details instead of {@code rps}, its summary median seconds and {@code kafka_streams_vs_weir}
 * (Kafka Streams' seconds over Weir's); a start-to-ready run has no {@code records}, its
 * {@code seconds} (process start to ready) and {@code started_seconds}, its summary that of the
 * restart without {@code keys} and with the median {@code started_seconds} of each; a memory run has
 * {@code workload}, {@code system}, {@code keys}, the job's memory figures and {@code seconds}, and
 * no summary. The scaling workloads' runs have the restart's fields ({@code keys}, {@code seconds}
 * and the job's details); the failover summary is the restart's without {@code keys}, the scale-out
 * summary the median {@code max_pause_seconds} and median {@code seconds} (start to balanced) of
 * each system. The savepoint workload's runs have the restart's fields too (its {@code seconds}:
 * request → manifest written) and its summary Weir's medians with {@code "peer": null}, Kafka
 * Streams having no savepoints ({@link SavepointJob}).
 */
public final class JsonReport {

    private final PrintStream out;

    public JsonReport(PrintStream out) {
        this.out = out;
    }

    /** One run: {@code seconds} and {@code rps} are null and {@code error} is set if it failed. */
    public void run(RunResult r) {
        switch (r.scenario().kind()) {
            case RESTART, FAILOVER, SCALE_OUT, SAVEPOINT -> restartRun(r);
            case YSB -> finish(runLine(r), r);
            case MEMORY -> memoryRun(r);
            case READY -> readyRun(r);
            default -> throughputRun(r);
        }
    }

    private void throughputRun(RunResult r) {
        ObjectNode line = runLine(r).put("records", r.records());
        if (r.ok()) {
            line.put("seconds", round(r.seconds(), 3)).put("rps", Math.round(r.rps()));
        } else {
            line.putNull("seconds").putNull("rps");
        }
        finish(line, r);
    }

    private void readyRun(RunResult r) {
        ObjectNode line = runLine(r);
        putSeconds(line, r);
        finish(line, r);
    }

    private void restartRun(RunResult r) {
        ObjectNode line = runLine(r).put("keys", r.records());
        putSeconds(line, r);
        finish(line, r);
    }

    /** The fields every run line starts with. */
    private ObjectNode runLine(RunResult r) {
        return Json.MAPPER
                .createObjectNode()
                .put("workload", r.scenario().label())
                .put("guarantee", r.guarantee().label())
                .put("system", r.system())
                .put("run", r.run());
    }

    private static void putSeconds(ObjectNode line, RunResult r) {
        if (r.ok()) {
            line.put("seconds", round(r.seconds(), 3));
        } else {
            line.putNull("seconds");
        }
    }

    /** The job's details, the error of a failed run, and out. */
    private void finish(ObjectNode line, RunResult r) {
        putDetails(line, r);
        r.error().ifPresent(e -> line.put("error", e));
        write(line);
    }

    private void memoryRun(RunResult r) {
        ObjectNode line = Json.MAPPER
                .createObjectNode()
                .put("workload", r.scenario().label())
                .put("system", r.system())
                .put("keys", r.records());
        putDetails(line, r);
        putSeconds(line, r);
        r.error().ifPresent(e -> line.put("error", e));
        write(line);
    }

    private static void putDetails(ObjectNode line, RunResult r) {
        r.details().forEach((field, value) -> {
            if (value == null) {
                line.putNull(field);
            } else if (value instanceof Boolean b) {
                line.put(field, b);
            } else if (value instanceof Double d) {
                line.put(field, d);
            } else if (value instanceof Number n) {
                line.put(field, n.longValue());
            } else {
                line.put(field, value.toString());
            }
        });
    }

    public void summary(Summary s) {
        switch (s.scenario().kind()) {
            case RESTART, READY, FAILOVER -> secondsSummary(s);
            case SCALE_OUT -> scaleOutSummary(s);
            case SAVEPOINT -> savepointSummary(s);
            case MEMORY -> throw new IllegalArgumentException("the memory workload has no summary");
            default -> throughputSummary(s);
        }
    }

    /**
     * Restart and start-to-ready: median seconds and Kafka Streams' over Weir's; start-to-ready also
     * the median {@code started_seconds} of each.
     */
    private void secondsSummary(Summary s) {
        ObjectNode line = summaryLine(s.scenario().label(), s.guarantee().label());
        if (s.scenario().kind() == Scenario.Kind.RESTART) {
            line.put("keys", s.records());
        }
        putRounded(line, "weir_seconds", s.seconds("weir"), 3);
        putRounded(line, "kafka_streams_seconds", s.seconds("kafka_streams"), 3);
        putRounded(line, "kafka_streams_vs_weir", s.secondsRatio("kafka_streams", "weir"), 3);
        if (s.systems().contains(ChildCountRunner.FAST_DETECTION)) {
            putRounded(line, "weir_detection_1s_seconds", s.seconds(ChildCountRunner.FAST_DETECTION), 3);
            putRounded(
                    line,
                    "kafka_streams_vs_weir_detection_1s",
                    s.secondsRatio("kafka_streams", ChildCountRunner.FAST_DETECTION),
                    3);
        }
        if (s.scenario().kind() == Scenario.Kind.READY) {
            putRounded(line, "weir_started_seconds", s.detail("weir", "started_seconds"), 3);
            putRounded(line, "kafka_streams_started_seconds", s.detail("kafka_streams", "started_seconds"), 3);
        }
        write(line);
    }

    /**
     * Scale-out: the median longest pause of each system and its median seconds from the new
     * instance's start to balanced.
     */
    private void scaleOutSummary(Summary s) {
        ObjectNode line = summaryLine(s.scenario().label(), s.guarantee().label());
        putRounded(line, "weir_max_pause_seconds", s.detail("weir", "max_pause_seconds"), 3);
        putRounded(line, "kafka_streams_max_pause_seconds", s.detail("kafka_streams", "max_pause_seconds"), 3);
        putRounded(line, "weir_balanced_seconds", s.seconds("weir"), 3);
        putRounded(line, "kafka_streams_balanced_seconds", s.seconds("kafka_streams"), 3);
        write(line);
    }

    /**
     * Savepoint: Weir's medians of the total time (request → manifest), the cut, the longest output
     * pause around the savepoint and before it, the write rate, the CLI's restore step and the
     * restore rate; {@code "peer": null} (Kafka Streams has no savepoints).
     */
    private void savepointSummary(Summary s) {
        ObjectNode line =
                summaryLine(s.scenario().label(), s.guarantee().label()).put("keys", s.records());
        putRounded(line, "weir_seconds", s.seconds("weir"), 3);
        putRounded(line, "weir_cut_ms", s.detail("weir", "cut_ms"), 0);
        putRounded(line, "weir_max_pause_seconds", s.detail("weir", "max_pause_seconds"), 3);
        putRounded(line, "weir_baseline_max_pause_seconds", s.detail("weir", "baseline_max_pause_seconds"), 3);
        putRounded(line, "weir_write_rps", s.detail("weir", "write_rps"), 0);
        putRounded(line, "weir_write_mb_per_s", s.detail("weir", "write_mb_per_s"), 2);
        putRounded(line, "weir_restore_step_seconds", s.detail("weir", "restore_step_seconds"), 3);
        putRounded(line, "weir_restore_rps", s.detail("weir", "restore_rps"), 0);
        putRounded(line, "weir_restore_vs_write", s.detail("weir", "restore_vs_write"), 3);
        line.putNull("peer");
        line.put("peer_note", SavepointJob.PEER_NOTE);
        write(line);
    }

    /**
     * Median records per second of each system, Weir's ratios to the peers and, where the Weir
     * variants of the HTTP overhead ran, their ratios and the scrapes.
     */
    private void throughputSummary(Summary s) {
        boolean noHttp = s.systems().contains(WeirRunner.NO_HTTP);
        boolean scraped = s.systems().contains(WeirRunner.SCRAPED);
        boolean traced = s.systems().contains(WeirRunner.TRACED);
        ObjectNode line =
                summaryLine(s.scenario().label(), s.guarantee().label()).put("records", s.records());
        if (noHttp) {
            putRounded(line, "weir_no_http_rps", s.rps(WeirRunner.NO_HTTP), 0);
        }
        putRounded(line, "weir_rps", s.rps("weir"), 0);
        if (scraped) {
            putRounded(line, "weir_scraped_rps", s.rps(WeirRunner.SCRAPED), 0);
        }
        if (traced) {
            putRounded(line, "weir_traced_rps", s.rps(WeirRunner.TRACED), 0);
        }
        if (s.systems().contains(WeirRunner.TRACED_ROOT)) {
            putRounded(line, "weir_traced_root_rps", s.rps(WeirRunner.TRACED_ROOT), 0);
        }
        if (s.systems().contains(WeirRunner.BOUNDED)) {
            // The bounded workload: Weir bounded beside Weir streaming, no Kafka Streams.
            putRounded(line, "weir_bounded_rps", s.rps(WeirRunner.BOUNDED), 0);
            ratios(line, s, WeirRunner.BOUNDED, "weir");
        }
        if (s.systems().contains(WeirRunner.BATCHES)) {
            // restore-1m: the bulk load by ingestion (weir) beside write batches only.
            putRounded(line, "weir_batches_rps", s.rps(WeirRunner.BATCHES), 0);
            ratios(line, s, "weir", WeirRunner.BATCHES);
        }
        putRounded(line, "kafka_streams_rps", s.rps("kafka_streams"), 0);
        if (s.scenario().hasBare()) {
            putRounded(line, "bare_rps", s.rps("bare"), 0);
        }
        ratios(line, s, "weir", "kafka_streams");
        if (s.scenario().hasBare()) {
            ratios(line, s, "weir", "bare");
        }
        if (noHttp) {
            ratios(line, s, "weir", WeirRunner.NO_HTTP);
        }
        if (traced) {
            ratios(line, s, WeirRunner.TRACED, "weir");
        }
        if (s.systems().contains(WeirRunner.TRACED_ROOT)) {
            ratios(line, s, WeirRunner.TRACED_ROOT, "weir");
        }
        if (scraped) {
            ratios(line, s, WeirRunner.SCRAPED, "weir");
            if (noHttp) {
                ratios(line, s, WeirRunner.SCRAPED, WeirRunner.NO_HTTP);
            }
        }
        if (s.scenario().reportsCpu()) {
            for (String system : s.systems()) {
                putRounded(line, system + "_cpu_seconds", s.detail(system, "cpu_seconds"), 3);
                putRounded(line, system + "_cpu_s_per_m_records", s.cpuPerMillion(system), 3);
            }
        }
        if (scraped) {
            s.scrapes()
                    .ifPresentOrElse(
                            c -> {
                                line.put("scrape_interval_ms", c.intervalMs());
                                putRounded(line, "scrapes", OptionalDouble.of(c.medianScrapes()), 1);
                                putRounded(line, "scrape_bytes", c.medianBytes(), 0);
                                putRounded(
                                        line, "scrape_median_ms", s.detail(WeirRunner.SCRAPED, "scrape_median_ms"), 1);
                                line.put("scrape_failures", c.failures());
                            },
                            () -> line.putNull("scrapes"));
        }
        write(line);
    }

    /** The ysb summary ({@link YsbSummary}). */
    public void ysbSummary(List<RunResult> results) {
        write(YsbSummary.line(results));
    }

    /**
     * {@code a}'s rate over {@code b}'s ({@code a_vs_b}) and, where the workload reports CPU,
     * {@code a}'s CPU per record over {@code b}'s beside it ({@code a_cpu_vs_b}: below 1, {@code a}
     * pays less for a record).
     */
    private static void ratios(ObjectNode line, Summary s, String a, String b) {
        putRounded(line, a + "_vs_" + b, s.rpsRatio(a, b), 3);
        if (s.scenario().reportsCpu()) {
            putRounded(line, a + "_cpu_vs_" + b, s.cpuRatio(a, b), 3);
        }
    }

    static void putRounded(ObjectNode line, String field, OptionalDouble value, int decimals) {
        if (value.isEmpty()) {
            line.putNull(field);
        } else if (decimals == 0) {
            line.put(field, Math.round(value.getAsDouble()));
        } else {
            line.put(field, round(value.getAsDouble(), decimals));
        }
    }

    private static double round(double value, int decimals) {
        double scale = Math.pow(10, decimals);
        return Math.round(value * scale) / scale;
    }

    /** The fields every summary line starts with. */
    static ObjectNode summaryLine(String workload, String guarantee) {
        return Json.MAPPER
                .createObjectNode()
                .put("summary", true)
                .put("workload", workload)
                .put("guarantee", guarantee);
    }

    /** A line a workload built itself ({@link QueryBench}). */
    public void line(ObjectNode line) {
        write(line);
    }

    private void write(ObjectNode line) {
        try {
            out.println(Json.MAPPER.writeValueAsString(line));
            out.flush();
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("Cannot write JSON", e);
        }
    }
}
