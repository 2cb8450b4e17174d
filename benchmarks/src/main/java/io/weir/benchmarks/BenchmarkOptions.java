package io.weir.benchmarks;

import java.time.Duration;
import java.util.Optional;

/**
 * The command line: {@code --records N} (default 10,000,000), {@code --warmup-records N}
 * (default 2,000,000; 0 skips the warm-up), {@code --runs N} (default 3) and
 * {@code --run-timeout-seconds N} (default 60 s plus 1 s per 10,000 records, i.e. a run slower
 * than 10k records/s times out) and {@code --verify} (after each run, read the output back and check
 * it; off the clock, but slow for large inputs). Both {@code --name value} and {@code --name=value} work.
 */
record BenchmarkOptions(long records, long warmupRecords, int runs, Optional<Duration> explicitRunTimeout,
        boolean verify) {

    static final String USAGE = "usage: StatelessMapBenchmark [--records N] [--warmup-records N] [--runs N]"
            + " [--run-timeout-seconds N] [--verify]";

    BenchmarkOptions {
        if (records <= 0 || warmupRecords < 0 || runs <= 0
                || explicitRunTimeout.filter(t -> t.isNegative() || t.isZero()).isPresent()) {
            throw new IllegalArgumentException("records, runs and the run timeout must be positive, warm-up records"
                    + " not negative; " + USAGE);
        }
    }

    /** The run timeout for an input of {@code n} records: the one given, or one that scales with {@code n}. */
    Duration runTimeout(long n) {
        return explicitRunTimeout.orElseGet(() -> Duration.ofSeconds(60 + n / 10_000));
    }

    /** @throws IllegalArgumentException with a message fit for the user */
    static BenchmarkOptions parse(String... args) {
        long records = 10_000_000;
        long warmup = 2_000_000;
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
                case "--records" -> records = parseLong(name, value);
                case "--warmup-records" -> warmup = parseLong(name, value);
                case "--runs" -> runs = Math.toIntExact(parseLong(name, value));
                case "--run-timeout-seconds" -> timeoutSeconds = parseLong(name, value);
                default -> throw new IllegalArgumentException("unknown option " + name + "; " + USAGE);
            }
        }
        return new BenchmarkOptions(records, warmup, runs, Optional.ofNullable(timeoutSeconds).map(Duration::ofSeconds),
                verify);
    }

    private static long parseLong(String name, String value) {
        try {
            return Long.parseLong(value.replace("_", ""));
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(name + " needs a whole number, got '" + value + "'; " + USAGE);
        }
    }
}
