package io.weir.benchmarks;

import java.util.List;
import java.util.OptionalDouble;

/**
 * The medians of one workload's and guarantee's successful runs per system, and Weir's ratios to
 * the others. A median (and any ratio using it) is empty when the system had no successful run;
 * {@code bareRps} is empty also for workloads without a bare loop ({@link Scenario#hasBare()}).
 */
record Summary(Scenario scenario, Guarantee guarantee, long records, OptionalDouble weirRps,
        OptionalDouble kafkaStreamsRps, OptionalDouble bareRps) {

    static Summary of(Scenario scenario, Guarantee guarantee, long records, List<RunResult> results) {
        return new Summary(scenario, guarantee, records, median(results, scenario, guarantee, "weir"),
                median(results, scenario, guarantee, "kafka_streams"),
                median(results, scenario, guarantee, "bare"));
    }

    OptionalDouble weirVsKafkaStreams() {
        return ratio(weirRps, kafkaStreamsRps);
    }

    OptionalDouble weirVsBare() {
        return ratio(weirRps, bareRps);
    }

    private static OptionalDouble ratio(OptionalDouble a, OptionalDouble b) {
        return a.isPresent() && b.isPresent() ? OptionalDouble.of(a.getAsDouble() / b.getAsDouble())
                : OptionalDouble.empty();
    }

    /** The median of the successful runs' throughput; the mean of the middle two for an even count. */
    static OptionalDouble median(List<RunResult> results, Scenario scenario, Guarantee guarantee, String system) {
        double[] rps = results.stream()
                .filter(r -> r.ok() && r.scenario() == scenario && r.guarantee() == guarantee
                        && r.system().equals(system))
                .mapToDouble(RunResult::rps).sorted().toArray();
        if (rps.length == 0) {
            return OptionalDouble.empty();
        }
        int mid = rps.length / 2;
        return OptionalDouble.of(rps.length % 2 == 1 ? rps[mid] : (rps[mid - 1] + rps[mid]) / 2);
    }
}
