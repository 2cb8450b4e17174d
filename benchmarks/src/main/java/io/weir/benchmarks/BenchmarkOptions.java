package io.weir.benchmarks;

import java.time.Duration;
import java.util.List;
import java.util.Optional;

/**
 * The command line: {@code --workload W} ({@code stateless-map} (default), {@code count-10k},
 * {@code count-1m}, {@code restore-1m}, {@code all}, or a comma-separated list), {@code --records N}
 * (default 10,000,000), {@code --warmup-records N} (default 2,000,000; 0 skips the warm-up),
 * {@code --restore-keys N} (default 1,000,000: the changelog size of {@code restore-1m}),
 * {@code --restore-warmup-keys N} (default 100,000; 0 skips the restore warm-up), {@code --runs N}
 * (default 3), {@code --run-timeout-seconds N} (default 60 s plus 1 s per 10,000 records, i.e. a run
 * slower than 10k records/s times out) and {@code --verify} (after each run, read the output back
 * and check it; off the clock, but slow for large inputs). Both {@code --name value} and
 * {@code --name=value} work.
 */
record BenchmarkOptions(List<Scenario> workloads, long records, long warmupRecords, long restoreKeys,
        long restoreWarmupKeys, int runs, Optional<Duration> explicitRunTimeout, boolean verify) {

    static final String USAGE = "usage: Benchmark [--workload stateless-map|count-10k|count-1m|restore-1m|all]"
            + " [--records N] [--warmup-records N] [--restore-keys N] [--restore-warmup-keys N] [--runs N]"
            + " [--run-timeout-seconds N] [--verify]";

    BenchmarkOptions {
        workloads = List.copyOf(workloads);
        if (workloads.isEmpty() || records <= 0 || warmupRecords < 0 || restoreKeys <= 0 || restoreWarmupKeys < 0
                || runs <= 0 || explicitRunTimeout.filter(t -> t.isNegative() || t.isZero()).isPresent()) {
            throw new IllegalArgumentException("records, restore keys, runs and the run timeout must be positive,"
                    + " warm-up sizes not negative; " + USAGE);
        }
    }

    /** The run timeout for an input of {@code n} records: the one given, or one that scales with {@code n}. */
    Duration runTimeout(long n) {
        return explicitRunTimeout.orElseGet(() -> Duration.ofSeconds(60 + n / 10_000));
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
                default -> throw new IllegalArgumentException("unknown option " + name + "; " + USAGE);
            }
        }
        return new BenchmarkOptions(workloads, records, warmup, restoreKeys, restoreWarmup, runs,
                Optional.ofNullable(timeoutSeconds).map(Duration::ofSeconds), verify);
    }

    private static long parseLong(String name, String value) {
        try {
            return Long.parseLong(value.replace("_", ""));
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(name + " needs a whole number, got '" + value + "'; " + USAGE);
        }
    }
}
