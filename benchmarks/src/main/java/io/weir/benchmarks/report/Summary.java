package io.weir.benchmarks.report;

import io.weir.benchmarks.Guarantee;
import io.weir.benchmarks.RunResult;
import io.weir.benchmarks.Scenario;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.function.ToDoubleFunction;

/**
 * The medians of one workload's and guarantee's successful runs per system (by the system's name
 * in the results: {@code weir}, {@code kafka_streams}, {@code bare}, and the http-overhead
 * variants {@code weir_no_http}, {@code weir_scraped}), in records per second and in seconds, and
 * the ratios between them. {@link #systems()} are those that ran, in the order of their first run,
 * whether or not any run succeeded. A system with no successful run has no median (and a ratio using it is
 * empty). {@link #detail} gives the median of a numeric run detail ({@code cpu_seconds},
 * {@code started_seconds}, ...) per system.
 * The restart and start-to-ready workloads are summarised in seconds, the others in
 * records per second. {@link #scrapes()} sums up the {@code /metrics} scrapes of the scraped runs,
 * if any ran.
 */
public record Summary(
        Scenario scenario,
        Guarantee guarantee,
        long records,
        List<String> systems,
        Map<String, Double> rps,
        Map<String, Double> seconds,
        Map<String, Map<String, Double>> details,
        Optional<Scrapes> scrapes) {

    /**
     * The scrapes of a scraped system's successful runs: the interval, the median number of scrapes
     * per run, the median body size of one scrape (a run's last) in bytes, and failed scrapes over
     * all runs.
     */
    record Scrapes(long intervalMs, double medianScrapes, OptionalDouble medianBytes, long failures) {}

    public Summary {
        systems = List.copyOf(systems);
        rps = Map.copyOf(rps);
        seconds = Map.copyOf(seconds);
        details = Map.copyOf(details);
    }

    public static Summary of(Scenario scenario, Guarantee guarantee, long records, List<RunResult> results) {
        List<RunResult> ran = results.stream()
                .filter(r -> r.scenario() == scenario && r.guarantee() == guarantee)
                .toList();
        List<RunResult> ok = ran.stream().filter(RunResult::ok).toList();
        Map<String, Double> rps = new LinkedHashMap<>();
        Map<String, Double> seconds = new LinkedHashMap<>();
        Map<String, Map<String, Double>> details = new LinkedHashMap<>();
        List<String> systems = ran.stream().map(RunResult::system).distinct().toList();
        for (String system : systems) {
            List<RunResult> runs =
                    ok.stream().filter(r -> r.system().equals(system)).toList();
            median(runs, RunResult::rps).ifPresent(m -> rps.put(system, m));
            median(runs, RunResult::seconds).ifPresent(m -> seconds.put(system, m));
            details.put(system, detailMedians(runs));
        }
        return new Summary(scenario, guarantee, records, systems, rps, seconds, details, scrapes(ok));
    }

    OptionalDouble rps(String system) {
        return optional(rps.get(system));
    }

    OptionalDouble seconds(String system) {
        return optional(seconds.get(system));
    }

    /** The median of the numeric detail {@code name} ({@code cpu_seconds}, ...) over {@code system}'s runs that have it. */
    OptionalDouble detail(String system, String name) {
        return optional(details.getOrDefault(system, Map.of()).get(name));
    }

    /** {@code system}'s median CPU seconds per million records, where its runs report CPU. */
    OptionalDouble cpuPerMillion(String system) {
        OptionalDouble cpu = detail(system, "cpu_seconds");
        return cpu.isPresent() && records > 0
                ? OptionalDouble.of(cpu.getAsDouble() / records * 1e6)
                : OptionalDouble.empty();
    }

    /** {@code a}'s CPU per record over {@code b}'s (the same records for both: their CPU seconds' ratio). */
    OptionalDouble cpuRatio(String a, String b) {
        return ratio(cpuPerMillion(a), cpuPerMillion(b));
    }

    /** The median of each numeric detail, over the runs that have it. */
    private static Map<String, Double> detailMedians(List<RunResult> runs) {
        Map<String, Double> medians = new LinkedHashMap<>();
        for (String name : runs.stream()
                .flatMap(r -> r.details().keySet().stream())
                .distinct()
                .toList()) {
            median(
                            runs.stream()
                                    .filter(r -> r.details().get(name) instanceof Number)
                                    .toList(),
                            r -> ((Number) r.details().get(name)).doubleValue())
                    .ifPresent(m -> medians.put(name, m));
        }
        return medians;
    }

    /** {@code a}'s median records per second over {@code b}'s. */
    OptionalDouble rpsRatio(String a, String b) {
        return ratio(rps(a), rps(b));
    }

    /** {@code a}'s median seconds over {@code b}'s: how many times longer {@code a} takes. */
    OptionalDouble secondsRatio(String a, String b) {
        return ratio(seconds(a), seconds(b));
    }

    private static Optional<Scrapes> scrapes(List<RunResult> ok) {
        List<RunResult> scraped = ok.stream()
                .filter(r -> r.details().get("scrapes") instanceof Number)
                .toList();
        if (scraped.isEmpty()) {
            return Optional.empty();
        }
        long interval = ((Number) scraped.get(0).details().get("scrape_interval_ms")).longValue();
        double count = median(scraped, r -> ((Number) r.details().get("scrapes")).doubleValue())
                .getAsDouble();
        OptionalDouble bytes = median(
                scraped.stream()
                        .filter(r -> r.details().get("scrape_bytes") != null)
                        .toList(),
                r -> ((Number) r.details().get("scrape_bytes")).doubleValue());
        long failures = scraped.stream()
                .mapToLong(r -> ((Number) r.details().get("scrape_failures")).longValue())
                .sum();
        return Optional.of(new Scrapes(interval, count, bytes, failures));
    }

    private static OptionalDouble optional(Double value) {
        return value == null ? OptionalDouble.empty() : OptionalDouble.of(value);
    }

    private static OptionalDouble ratio(OptionalDouble a, OptionalDouble b) {
        return a.isPresent() && b.isPresent()
                ? OptionalDouble.of(a.getAsDouble() / b.getAsDouble())
                : OptionalDouble.empty();
    }

    /** The median of a measure of the runs; the mean of the middle two for an even count. */
    static OptionalDouble median(List<RunResult> runs, ToDoubleFunction<RunResult> measure) {
        double[] values = runs.stream().mapToDouble(measure).sorted().toArray();
        if (values.length == 0) {
            return OptionalDouble.empty();
        }
        int mid = values.length / 2;
        return OptionalDouble.of(values.length % 2 == 1 ? values[mid] : (values[mid - 1] + values[mid]) / 2);
    }
}
