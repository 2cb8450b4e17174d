package io.weir.benchmarks.enrich;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.weir.benchmarks.report.Json;
import java.util.Map;

/**
 * The {@code enrich} summary of one latency: each system's records a second (throughput runs),
 * the in-flight ceiling, the ratios of Weir asynchronous to each peer and to the ceiling, how busy
 * the machine's cores were in Weir asynchronous' run (near 1: the cores, not the bound, limited
 * it), and from the paced runs each system's end-to-end p50/p99 with the service's p99 in Weir
 * asynchronous' paced run (its calls' times) and their ratio; whether every output was exact.
 */
final class EnrichSummary {

    private EnrichSummary() {}

    static ObjectNode line(
            int latencyMs,
            int bound,
            double failureRate,
            Map<String, EnrichBench.Measured> measured,
            Map<String, EnrichBench.Measured> paced) {
        ObjectNode line = Json.MAPPER
                .createObjectNode()
                .put("summary", true)
                .put("workload", "enrich")
                .put("guarantee", "exactly_once")
                .put("latency_ms", latencyMs)
                .put("in_flight", bound)
                .put("failure_rate", failureRate)
                .put("common_pool_parallelism", java.util.concurrent.ForkJoinPool.getCommonPoolParallelism());
        for (var e : measured.entrySet()) {
            put(line, e.getKey() + "_rps", rps(e.getValue()), 0);
        }
        double ceiling = bound * 1000.0 / latencyMs;
        put(line, "ceiling_rps", ceiling, 0);
        double async = rps(measured.get(WeirEnrich.ASYNC));
        put(line, "async_vs_kafka_streams", async / rps(measured.get(KafkaStreamsEnrich.NAME)), 1);
        put(line, "async_vs_weir_sync", async / rps(measured.get(WeirEnrich.SYNC)), 1);
        put(line, "async_vs_ceiling", async / ceiling, 3);
        if (measured.get(WeirEnrich.ASYNC) != null) {
            put(
                    line,
                    "async_vs_observed_ceiling",
                    async / measured.get(WeirEnrich.ASYNC).observedCeilingRps(),
                    3);
        }
        line.putNull("async_vs_parallel_consumer");
        line.put("parallel_consumer", ParallelConsumerAbsence.SHORT);
        EnrichBench.Measured asyncRun = measured.get(WeirEnrich.ASYNC);
        if (asyncRun != null && asyncRun.result() != null) {
            put(line, "async_machine_busy", asyncRun.result().machineBusy(), 2);
            put(line, "async_jvm_cores", asyncRun.result().jvmCores(), 2);
            put(line, "async_in_flight_observed_mean", asyncRun.calls().meanInFlight(), 1);
        }
        for (var e : measured.entrySet()) {
            if (e.getValue().result() != null) {
                put(
                        line,
                        e.getKey() + "_cpu_seconds_per_million",
                        e.getValue().result().cpuSecondsPerMillion(),
                        2);
            }
        }
        for (var e : paced.entrySet()) {
            if (e.getValue().result() != null) {
                put(line, e.getKey() + "_paced_rps", e.getValue().offeredRps(), 0);
                put(line, e.getKey() + "_p50_ms", percentile(e.getValue(), 50), 1);
                put(line, e.getKey() + "_p99_ms", percentile(e.getValue(), 99), 1);
            }
        }
        EnrichBench.Measured asyncPaced = paced.get(WeirEnrich.ASYNC);
        if (asyncPaced != null && asyncPaced.result() != null) {
            double serviceP99 = asyncPaced.calls().callMs(99);
            put(line, "service_p99_ms", serviceP99, 1);
            put(line, "async_p99_vs_service_p99", percentile(asyncPaced, 99) / serviceP99, 2);
        }
        boolean exact = measured.values().stream().allMatch(EnrichBench.Measured::ok)
                && paced.values().stream().allMatch(EnrichBench.Measured::ok);
        line.put("outputs_exact", exact);
        return line;
    }

    private static double rps(EnrichBench.Measured m) {
        return m == null || !m.ok() ? Double.NaN : m.result().rps();
    }

    private static double percentile(EnrichBench.Measured m, double p) {
        return m.result().appendMs().getTotalCount() == 0
                ? Double.NaN
                : m.result().appendMs().getValueAtPercentile(p);
    }

    /** {@code value} rounded to {@code decimals}, or null if it is not a number. */
    static void put(ObjectNode line, String field, double value, int decimals) {
        if (Double.isNaN(value) || Double.isInfinite(value)) {
            line.putNull(field);
        } else if (decimals == 0) {
            line.put(field, Math.round(value));
        } else {
            double scale = Math.pow(10, decimals);
            line.put(field, Math.round(value * scale) / scale);
        }
    }
}
