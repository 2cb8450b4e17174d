package io.weir.benchmarks;

import java.util.Optional;

/**
 * The outcome of one measured run of a workload: how long {@code records} records took (processed,
 * or for a restore, restored), or why the run failed. {@code seconds} is meaningful only when
 * {@code error} is empty.
 */
record RunResult(Scenario scenario, String system, Guarantee guarantee, int run, long records, double seconds,
        Optional<String> error) {

    static RunResult succeeded(Scenario scenario, String system, Guarantee guarantee, int run, long records,
            double seconds) {
        return new RunResult(scenario, system, guarantee, run, records, seconds, Optional.empty());
    }

    static RunResult failed(Scenario scenario, String system, Guarantee guarantee, int run, long records,
            String error) {
        return new RunResult(scenario, system, guarantee, run, records, Double.NaN, Optional.of(error));
    }

    boolean ok() {
        return error.isEmpty();
    }

    /** Records per second; NaN for a failed run. */
    double rps() {
        return records / seconds;
    }
}
