package io.weir.benchmarks;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

/**
 * The outcome of one measured run of a workload: how long {@code records} records took (processed,
 * or for a restore, restored; for a restart, the time to the first new output over {@code records}
 * keys), or why the run failed. {@code seconds} is meaningful only when {@code error} is empty.
 * {@code details} are the job's further measurements ({@link Job#details}), in the order of the
 * JSON line.
 */
public record RunResult(
        Scenario scenario,
        String system,
        Guarantee guarantee,
        int run,
        long records,
        double seconds,
        Optional<String> error,
        Map<String, Object> details) {

    public RunResult {
        details = Collections.unmodifiableMap(new LinkedHashMap<>(details)); // keeps the order; allows nulls
    }

    static RunResult succeeded(
            Scenario scenario, String system, Guarantee guarantee, int run, long records, double seconds) {
        return new RunResult(scenario, system, guarantee, run, records, seconds, Optional.empty(), Map.of());
    }

    static RunResult failed(
            Scenario scenario, String system, Guarantee guarantee, int run, long records, String error) {
        return new RunResult(scenario, system, guarantee, run, records, Double.NaN, Optional.of(error), Map.of());
    }

    /** This result with {@code details} instead of its own. */
    RunResult withDetails(Map<String, Object> details) {
        return new RunResult(scenario, system, guarantee, run, records, seconds, error, details);
    }

    public boolean ok() {
        return error.isEmpty();
    }

    /** Records per second; NaN for a failed run. */
    public double rps() {
        return records / seconds;
    }
}
