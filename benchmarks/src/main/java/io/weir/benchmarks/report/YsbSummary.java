package io.weir.benchmarks.report;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.weir.benchmarks.Guarantee;
import io.weir.benchmarks.RunResult;
import io.weir.benchmarks.ysb.YsbJob;
import java.util.List;
import java.util.OptionalDouble;

/**
 * The Yahoo Streaming Benchmark's summary line: unlike the other workloads', whose summaries are
 * medians over runs of one configuration ({@link Summary}), it reads a ladder of offered rates, one
 * run each, for the highest rate each system sustained and the latencies at given rates.
 */
final class YsbSummary {

    private YsbSummary() {}

    /**
     * The line: per system the highest offered rate it sustained ({@code <system>_sustained_eps},
     * null if none; see {@link YsbJob}), the ratio of Weir's to Kafka Streams', each system's
     * {@code p99_ms} at 200,000 events a second (and Weir's {@code final_p99_ms}), Weir's at the
     * lowest rate of the ladder at least 1.5 times Kafka Streams' sustained one
     * ({@code at_1_5x_kafka_streams_eps}), and each system's achieved rate per offered rate (it
     * should not fall once the offered rate passes what the system sustains).
     */
    static ObjectNode line(List<RunResult> results) {
        ObjectNode line = JsonReport.summaryLine("ysb", Guarantee.EXACTLY_ONCE.label());
        OptionalDouble weir = ysbSustained(results, "weir");
        OptionalDouble streams = ysbSustained(results, "kafka_streams");
        JsonReport.putRounded(line, "weir_sustained_eps", weir, 0);
        JsonReport.putRounded(line, "kafka_streams_sustained_eps", streams, 0);
        JsonReport.putRounded(
                line,
                "weir_vs_kafka_streams",
                weir.isPresent() && streams.isPresent()
                        ? OptionalDouble.of(weir.getAsDouble() / streams.getAsDouble())
                        : OptionalDouble.empty(),
                3);
        JsonReport.putRounded(line, "weir_p99_ms_at_200k", ysbAt(results, "weir", 200_000, "p99_ms"), 0);
        JsonReport.putRounded(
                line, "kafka_streams_p99_ms_at_200k", ysbAt(results, "kafka_streams", 200_000, "p99_ms"), 0);
        JsonReport.putRounded(line, "weir_final_p99_ms_at_200k", ysbAt(results, "weir", 200_000, "final_p99_ms"), 0);
        OptionalDouble oneAndAHalf = streams.isEmpty()
                ? OptionalDouble.empty()
                : results.stream()
                        .mapToDouble(r -> ((Number) r.details().getOrDefault("offered_eps", 0L)).doubleValue())
                        .filter(rate -> rate >= 1.5 * streams.getAsDouble())
                        .min();
        JsonReport.putRounded(line, "at_1_5x_kafka_streams_eps", oneAndAHalf, 0);
        JsonReport.putRounded(
                line,
                "weir_p99_ms_at_1_5x_kafka_streams",
                oneAndAHalf.isEmpty()
                        ? OptionalDouble.empty()
                        : ysbAt(results, "weir", (long) oneAndAHalf.getAsDouble(), "p99_ms"),
                0);
        JsonReport.putRounded(
                line,
                "weir_final_p99_ms_at_1_5x_kafka_streams",
                oneAndAHalf.isEmpty()
                        ? OptionalDouble.empty()
                        : ysbAt(results, "weir", (long) oneAndAHalf.getAsDouble(), "final_p99_ms"),
                0);
        for (String system : List.of("weir", "kafka_streams")) {
            ObjectNode achieved = line.putObject(system + "_achieved_eps");
            results.stream()
                    .filter(r -> r.system().equals(system) && r.details().get("achieved_eps") != null)
                    .forEach(r -> achieved.put(
                            String.valueOf(r.details().get("offered_eps")),
                            ((Number) r.details().get("achieved_eps")).longValue()));
        }
        return line;
    }

    private static OptionalDouble ysbSustained(List<RunResult> results, String system) {
        return results.stream()
                .filter(r -> r.system().equals(system)
                        && r.ok()
                        && Boolean.TRUE.equals(r.details().get("sustained")))
                .mapToDouble(r -> ((Number) r.details().get("offered_eps")).doubleValue())
                .max();
    }

    private static OptionalDouble ysbAt(List<RunResult> results, String system, long rate, String field) {
        return results.stream()
                .filter(r -> r.system().equals(system)
                        && r.ok()
                        && r.details().get(field) instanceof Number
                        && ((Number) r.details().get("offered_eps")).longValue() == rate)
                .mapToDouble(r -> ((Number) r.details().get(field)).doubleValue())
                .findFirst();
    }
}
