package io.weir.benchmarks;

import io.weir.benchmarks.enrich.EnrichOptions;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * The command line: {@code --workload W} ({@code stateless-map} (default), {@code count-10k},
 * {@code count-1m}, {@code restore-1m}, {@code window-count-10s}, {@code all} (these five),
 * {@code restart-1m}, {@code memory-10m}, {@code extras} (these two), {@code http-overhead},
 * {@code start-to-ready}, {@code ops} (these two), {@code failover}, {@code scale-out},
 * {@code scaling} (these two), {@code bounded} (streaming vs bounded Weir; in no group),
 * {@code savepoint} (a savepoint of Weir's state and its restore; in no group), {@code ysb} (the
 * Yahoo Streaming Benchmark at a ladder of rates, see {@link Ysb}; in no group), {@code queries},
 * {@code enrich} (a lookup per record over HTTP, blocking and asynchronous, see {@link EnrichOptions}
 * for its {@code --enrich-*} options; in no group), or a comma-separated list),
 * {@code --records N} (default 10,000,000), {@code --warmup-records N} (default 2,000,000; 0 skips the warm-up),
 * {@code --restore-keys N} (default 1,000,000: the changelog size of {@code restore-1m}),
 * {@code --restore-warmup-keys N} (default 100,000; 0 skips the restore warm-up), {@code --runs N}
 * (default 3), {@code --run-timeout-seconds N} (default 60 s plus 1 s per 10,000 records, i.e. a run
 * slower than 10k records/s times out) and {@code --verify} (after each run, read the output back
 * and check it; off the clock, but slow for large inputs), {@code --keys N} (the distinct keys of
 * {@code restart-1m}, {@code memory-10m}, {@code failover}, {@code scale-out} and {@code savepoint};
 * default 1,000,000, 10,000,000, 1,000,000, 2,000,000 and 1,000,000),
 * {@code --restart-trickle-seconds N} (default {@value #DEFAULT_RESTART_TRICKLE_SECONDS}: how long
 * the restart's first process runs on under live traffic after processing its input, before the
 * SIGKILL), {@code --rate N} (default {@value #DEFAULT_RATE}: records a second of the scaling
 * and savepoint workloads' live traffic) and {@code --scrape-metrics-ms N} (the interval at which {@code weir_scraped}'s
 * {@code /metrics} is scraped, default {@value #DEFAULT_SCRAPE_METRICS_MS}; given, it also adds
 * {@code weir_scraped} beside {@code weir} to the in-process throughput workloads), {@code --tracing-sample X}
 * (adds {@code weir_traced} beside {@code weir} to the in-process throughput workloads: Weir with an
 * OpenTelemetry SDK sampling a fraction X of the traces, its spans exported to nowhere), {@code --systems S,...}
 * (run only these systems, by their names in the results, e.g. {@code weir}: for measuring one side
 * of a workload whose peer takes long, such as Kafka Streams' half-hour {@code scale-out}; the
 * summary's ratios are then empty). Both
 * {@code --name value} and {@code --name=value} work.
 */
record BenchmarkOptions(
        List<Scenario> workloads,
        long records,
        long warmupRecords,
        long restoreKeys,
        long restoreWarmupKeys,
        int runs,
        Optional<Duration> explicitRunTimeout,
        boolean verify,
        OptionalLong explicitKeys,
        Duration restartTrickle,
        Optional<Duration> explicitScrapeInterval,
        int rate,
        Optional<Set<String>> systems,
        Ysb ysb,
        EnrichOptions enrich,
        Optional<Double> tracingSample) {

    /**
     * The {@code ysb} workload's ladder: {@code --ysb-rates} (events a second, default
     * 100,000 to 500,000 in steps of 100,000), {@code --ysb-warmup-seconds} (default 60),
     * {@code --ysb-seconds} (the measured time per step, default 60) and
     * {@code --ysb-drain-seconds} (how long after the measured time a step waits for its last
     * windows, default 30).
     */
    record Ysb(List<Integer> rates, Duration warmup, Duration measured, Duration drain) {
        static final Ysb DEFAULT = new Ysb(
                List.of(100_000, 200_000, 300_000, 400_000, 500_000),
                Duration.ofSeconds(60),
                Duration.ofSeconds(60),
                Duration.ofSeconds(30));

        Ysb {
            rates = List.copyOf(rates);
            if (rates.isEmpty()
                    || rates.stream().anyMatch(r -> r <= 0)
                    || warmup.isNegative()
                    || measured.isNegative()
                    || measured.isZero()
                    || drain.isNegative()) {
                throw new IllegalArgumentException("--ysb-rates must be positive, --ysb-seconds positive and the"
                        + " ysb warm-up and drain not negative; " + USAGE);
            }
        }
    }

    static final long DEFAULT_RESTART_TRICKLE_SECONDS = 15;
    static final long DEFAULT_SCRAPE_METRICS_MS = 1000;
    static final int DEFAULT_RATE = 1200;

    static final String USAGE = "usage: Benchmark [--workload stateless-map|count-10k|count-1m|restore-1m"
            + "|window-count-10s|all|restart-1m|memory-10m|extras|http-overhead|start-to-ready|ops"
            + "|failover|scale-out|scaling|bounded|savepoint|ysb|queries|enrich|serde-avro] [--records N] [--warmup-records N] [--restore-keys N]"
            + " [--restore-warmup-keys N] [--runs N] [--run-timeout-seconds N] [--verify] [--keys N]"
            + " [--restart-trickle-seconds N] [--scrape-metrics-ms N] [--rate N] [--systems weir,kafka_streams,bare,...]"
            + " [--ysb-rates N,N,...] [--ysb-warmup-seconds N] [--ysb-seconds N] [--ysb-drain-seconds N]"
            + " [--enrich-latencies-ms N,N,...] [--enrich-records N] [--enrich-in-flight N,N,...]"
            + " [--enrich-sync-seconds N] [--enrich-paced-seconds N] [--enrich-failure-rate X]"
            + " [--tracing-sample X]";

    BenchmarkOptions {
        workloads = List.copyOf(workloads);
        systems = systems.map(Set::copyOf);
        if (systems.filter(Set::isEmpty).isPresent()) {
            throw new IllegalArgumentException("--systems needs at least one system name; " + USAGE);
        }
        if (workloads.isEmpty()
                || records <= 0
                || warmupRecords < 0
                || restoreKeys <= 0
                || restoreWarmupKeys < 0
                || runs <= 0
                || explicitRunTimeout.filter(t -> t.isNegative() || t.isZero()).isPresent()
                || (explicitKeys.isPresent() && explicitKeys.getAsLong() <= 0)
                || restartTrickle.isNegative()
                || explicitScrapeInterval
                        .filter(t -> t.isNegative() || t.isZero())
                        .isPresent()
                || rate <= 0
                || tracingSample.filter(r -> !(r > 0 && r <= 1)).isPresent()) {
            throw new IllegalArgumentException("records, restore keys, keys, runs, the run timeout, the scrape"
                    + " interval and the rate must be positive, warm-up sizes and the restart trickle time not"
                    + " negative, the tracing sample above 0 and at most 1; " + USAGE);
        }
    }

    /** True if {@code system} (its name in the results) runs: every system unless {@code --systems} names some. */
    boolean runs(String system) {
        return systems.map(s -> s.contains(system)).orElse(true);
    }

    /** The interval of {@code weir_scraped}'s scrapes: {@code --scrape-metrics-ms}, or one second. */
    Duration scrapeInterval() {
        return explicitScrapeInterval.orElse(Duration.ofMillis(DEFAULT_SCRAPE_METRICS_MS));
    }

    /** The distinct keys of a restart or memory workload: {@code --keys}, or the scenario's own. */
    long keys(Scenario scenario) {
        return explicitKeys.isPresent() ? explicitKeys.getAsLong() : scenario.distinctKeys();
    }

    /** The run timeout for an input of {@code n} records: the one given, or one that scales with {@code n}. */
    Duration runTimeout(long n) {
        return runTimeout(n, Duration.ZERO);
    }

    /**
     * The run timeout for an input of {@code n} records of a workload that may wait for a further
     * {@code allowance} (a scaling workload's rebalances): the one given, or the default for
     * {@code n} plus the allowance.
     */
    Duration runTimeout(long n, Duration allowance) {
        return explicitRunTimeout.orElseGet(
                () -> Duration.ofSeconds(60 + n / 10_000).plus(allowance));
    }

    /** @throws IllegalArgumentException with a message fit for the user */
    static BenchmarkOptions parse(String... args) {
        List<Scenario> workloads = List.of(Scenario.STATELESS_MAP);
        long records = 10_000_000;
        long warmup = 2_000_000;
        long restoreKeys = Scenario.RESTORE_1M.distinctKeys();
        long restoreWarmup = 100_000;
        int runs = 3;
        Long timeoutSeconds = null;
        boolean verify = false;
        Long keys = null;
        long restartTrickle = DEFAULT_RESTART_TRICKLE_SECONDS;
        Long scrapeMs = null;
        long rate = DEFAULT_RATE;
        Set<String> systems = null;
        Ysb ysb = Ysb.DEFAULT;
        EnrichOptions enrich = EnrichOptions.DEFAULT;
        Double tracingSample = null;
        for (int i = 0; i < args.length; i++) {
            String arg = args[i];
            if (arg.isBlank()) {
                continue; // an empty -Dbenchmark.args expands to an empty argument
            }
            if (arg.equals("--verify")) {
                verify = true;
                continue;
            }
            String name = arg;
            String value;
            int eq = arg.indexOf('=');
            if (eq > 0) {
                name = arg.substring(0, eq);
                value = arg.substring(eq + 1);
            } else if (i + 1 < args.length) {
                value = args[++i];
            } else {
                throw new IllegalArgumentException(arg + " needs a value; " + USAGE);
            }
            switch (name) {
                case "--workload" -> workloads = Scenario.parseList(value);
                case "--records" -> records = parseLong(name, value);
                case "--warmup-records" -> warmup = parseLong(name, value);
                case "--restore-keys" -> restoreKeys = parseLong(name, value);
                case "--restore-warmup-keys" -> restoreWarmup = parseLong(name, value);
                case "--runs" -> runs = Math.toIntExact(parseLong(name, value));
                case "--run-timeout-seconds" -> timeoutSeconds = parseLong(name, value);
                case "--keys" -> keys = parseLong(name, value);
                case "--restart-trickle-seconds" -> restartTrickle = parseLong(name, value);
                case "--scrape-metrics-ms" -> scrapeMs = parseLong(name, value);
                case "--rate" -> rate = parseLong(name, value);
                case "--tracing-sample" -> {
                    try {
                        tracingSample = Double.parseDouble(value);
                    } catch (NumberFormatException e) {
                        throw new IllegalArgumentException(name + " needs a fraction such as 0.01, not " + value);
                    }
                }
                case "--systems" ->
                    systems = Arrays.stream(value.split(","))
                            .map(String::trim)
                            .filter(v -> !v.isEmpty())
                            .collect(Collectors.toSet());
                case "--ysb-rates" -> {
                    String option = name;
                    ysb = new Ysb(
                            Arrays.stream(value.split(","))
                                    .map(String::trim)
                                    .filter(v -> !v.isEmpty())
                                    .map(v -> Math.toIntExact(parseLong(option, v)))
                                    .toList(),
                            ysb.warmup(),
                            ysb.measured(),
                            ysb.drain());
                }
                case "--ysb-warmup-seconds" ->
                    ysb = new Ysb(ysb.rates(), Duration.ofSeconds(parseLong(name, value)), ysb.measured(), ysb.drain());
                case "--ysb-seconds" ->
                    ysb = new Ysb(ysb.rates(), ysb.warmup(), Duration.ofSeconds(parseLong(name, value)), ysb.drain());
                case "--ysb-drain-seconds" ->
                    ysb = new Ysb(
                            ysb.rates(), ysb.warmup(), ysb.measured(), Duration.ofSeconds(parseLong(name, value)));
                case "--enrich-latencies-ms",
                        "--enrich-records",
                        "--enrich-in-flight",
                        "--enrich-sync-seconds",
                        "--enrich-paced-seconds",
                        "--enrich-failure-rate" -> enrich = enrich(enrich, name, value);
                default -> throw new IllegalArgumentException("unknown option " + name + "; " + USAGE);
            }
        }
        return new BenchmarkOptions(
                workloads,
                records,
                warmup,
                restoreKeys,
                restoreWarmup,
                runs,
                Optional.ofNullable(timeoutSeconds).map(Duration::ofSeconds),
                verify,
                keys == null ? OptionalLong.empty() : OptionalLong.of(keys),
                Duration.ofSeconds(restartTrickle),
                Optional.ofNullable(scrapeMs).map(Duration::ofMillis),
                Math.toIntExact(rate),
                Optional.ofNullable(systems),
                ysb,
                enrich,
                Optional.ofNullable(tracingSample));
    }

    /** {@code enrich} with the {@code --enrich-*} option {@code name} set to {@code value}. */
    private static EnrichOptions enrich(EnrichOptions enrich, String name, String value) {
        try {
            return switch (name) {
                case "--enrich-latencies-ms" -> enrich.withLatenciesMs(parseInts(name, value));
                case "--enrich-records" -> enrich.withRecords(parseLong(name, value));
                case "--enrich-in-flight" -> enrich.withInFlight(parseInts(name, value));
                case "--enrich-sync-seconds" -> enrich.withSyncBudget(Duration.ofSeconds(parseLong(name, value)));
                case "--enrich-paced-seconds" -> enrich.withPaced(Duration.ofSeconds(parseLong(name, value)));
                case "--enrich-failure-rate" -> enrich.withFailureRate(parseDouble(name, value));
                default -> throw new IllegalArgumentException("unknown option " + name);
            };
        } catch (IllegalArgumentException e) {
            throw e.getMessage().contains("usage:") ? e : new IllegalArgumentException(e.getMessage() + "; " + USAGE);
        }
    }

    private static List<Integer> parseInts(String name, String value) {
        return Arrays.stream(value.split(","))
                .map(String::trim)
                .filter(v -> !v.isEmpty())
                .map(v -> Math.toIntExact(parseLong(name, v)))
                .toList();
    }

    private static double parseDouble(String name, String value) {
        try {
            return Double.parseDouble(value);
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(name + " needs a number, got '" + value + "'; " + USAGE);
        }
    }

    private static long parseLong(String name, String value) {
        try {
            return Long.parseLong(value.replace("_", ""));
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(name + " needs a whole number, got '" + value + "'; " + USAGE);
        }
    }
}
