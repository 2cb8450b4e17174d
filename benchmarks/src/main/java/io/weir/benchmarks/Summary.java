package io.weir.benchmarks;

import java.util.List;
import java.util.OptionalDouble;
import java.util.function.ToDoubleFunction;

/**
 * The medians of one workload's and guarantee's successful runs per system, and Weir's ratios to
 * the others. A median (and any ratio using it) is empty when the system had no successful run;
 * {@code bareRps} is empty also for workloads without a bare loop ({@link Scenario#hasBare()}). The
 * restart workload is summarised in seconds ({@code weirSeconds}, {@code kafkaStreamsSeconds}),
 * the others in records per second.
 */
record Summary(Scenario scenario, Guarantee guarantee, long records, OptionalDouble weirRps,
        OptionalDouble kafkaStreamsRps, OptionalDouble bareRps, OptionalDouble weirSeconds,
        OptionalDouble kafkaStreamsSeconds) {

    static Summary of(Scenario scenario, Guarantee guarantee, long records, List<RunResult> results) {
        return new Summary(scenario, guarantee, records,
                median(results, scenario, guarantee, "weir", RunResult::rps),
                median(results, scenario, guarantee, "kafka_streams", RunResult::rps),
                median(results, scenario, guarantee, "bare", RunResult::rps),
                median(results, scenario, guarantee, "weir", RunResult::seconds),
                median(results, scenario, guarantee, "kafka_streams", RunResult::seconds));
    }

    OptionalDouble weirVsKafkaStreams() {
        return ratio(weirRps, kafkaStreamsRps);
    }

    OptionalDouble weirVsBare() {
        return ratio(weirRps, bareRps);
    }

    /** Kafka Streams' median seconds over Weir's: how many times longer Kafka Streams takes. */
    OptionalDouble kafkaStreamsVsWeirSeconds() {
        return ratio(kafkaStreamsSeconds, weirSeconds);
    }

    private static OptionalDouble ratio(OptionalDouble a, OptionalDouble b) {
        return a.isPresent() && b.isPresent() ? OptionalDouble.of(a.getAsDouble() / b.getAsDouble())
                : OptionalDouble.empty();
    }

    /** The median of the successful runs' throughput; the mean of the middle two for an even count. */
    static OptionalDouble median(List<RunResult> results, Scenario scenario, Guarantee guarantee, String system) {
        return median(results, scenario, guarantee, system, RunResult::rps);
    }

    /** The median of a measure of the successful runs; the mean of the middle two for an even count. */
    static OptionalDouble median(List<RunResult> results, Scenario scenario, Guarantee guarantee, String system,
            ToDoubleFunction<RunResult> measure) {
        double[] values = results.stream()
                .filter(r -> r.ok() && r.scenario() == scenario && r.guarantee() == guarantee
                        && r.system().equals(system))
                .mapToDouble(measure).sorted().toArray();
        if (values.length == 0) {
            return OptionalDouble.empty();
        }
        int mid = values.length / 2;
        return OptionalDouble.of(values.length % 2 == 1 ? values[mid] : (values[mid - 1] + values[mid]) / 2);
    }
}
