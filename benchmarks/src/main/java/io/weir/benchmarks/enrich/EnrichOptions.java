package io.weir.benchmarks.enrich;

import java.time.Duration;
import java.util.List;

/**
 * The {@code enrich} workload's options ({@code --enrich-*}, see the README's option table).
 *
 * @param latenciesMs  the service's mean latencies, one pass of every system per latency
 *                     ({@code --enrich-latencies-ms}, default 5, 20 and 100)
 * @param records      the asynchronous systems' input per run, at most ({@code --enrich-records},
 *                     default 40,000; fewer where the in-flight ceiling would take over
 *                     {@link #ASYNC_SECONDS_AT_CEILING} for them)
 * @param inFlight     the in-flight bound of Weir asynchronous (over its tasks): the first for
 *                     the main runs and the paced run; the others add Weir asynchronous runs with
 *                     that bound, a sweep that shows where the ceiling
 *                     ({@code bound / latency}) rather than the cores limits ({@code --enrich-in-flight},
 *                     default 1000, 8, 32, 128)
 * @param syncBudget   the synchronous systems' time budget per run: their input is sized to take
 *                     about this long at one call at a time ({@code --enrich-sync-seconds}, default 20)
 * @param paced        how long each paced run (half the system's measured rate) sends
 *                     ({@code --enrich-paced-seconds}, default 10)
 * @param failureRate  the share of calls the service fails with 503 ({@code --enrich-failure-rate},
 *                     default 0); every system retries them
 */
public record EnrichOptions(
        List<Integer> latenciesMs,
        long records,
        List<Integer> inFlight,
        Duration syncBudget,
        Duration paced,
        double failureRate) {

    /** The asynchronous input is cut to what the in-flight ceiling processes in this many seconds. */
    public static final int ASYNC_SECONDS_AT_CEILING = 10;

    public static final EnrichOptions DEFAULT = new EnrichOptions(
            List.of(5, 20, 100),
            40_000,
            List.of(1000, 8, 32, 128),
            Duration.ofSeconds(20),
            Duration.ofSeconds(10),
            0.0);

    public EnrichOptions {
        latenciesMs = List.copyOf(latenciesMs);
        inFlight = List.copyOf(inFlight);
        if (latenciesMs.isEmpty()
                || latenciesMs.stream().anyMatch(l -> l <= 0)
                || records <= 0
                || inFlight.isEmpty()
                || inFlight.stream().anyMatch(n -> n <= 0)
                || syncBudget.isNegative()
                || syncBudget.isZero()
                || paced.isNegative()
                || failureRate < 0
                || failureRate >= 1) {
            throw new IllegalArgumentException("--enrich-latencies-ms, --enrich-records, --enrich-in-flight and"
                    + " --enrich-sync-seconds must be positive, --enrich-paced-seconds not negative and"
                    + " --enrich-failure-rate in [0, 1)");
        }
    }

    public EnrichOptions withLatenciesMs(List<Integer> v) {
        return new EnrichOptions(v, records, inFlight, syncBudget, paced, failureRate);
    }

    public EnrichOptions withRecords(long v) {
        return new EnrichOptions(latenciesMs, v, inFlight, syncBudget, paced, failureRate);
    }

    public EnrichOptions withInFlight(List<Integer> v) {
        return new EnrichOptions(latenciesMs, records, v, syncBudget, paced, failureRate);
    }

    public EnrichOptions withSyncBudget(Duration v) {
        return new EnrichOptions(latenciesMs, records, inFlight, v, paced, failureRate);
    }

    public EnrichOptions withPaced(Duration v) {
        return new EnrichOptions(latenciesMs, records, inFlight, syncBudget, v, failureRate);
    }

    public EnrichOptions withFailureRate(double v) {
        return new EnrichOptions(latenciesMs, records, inFlight, syncBudget, paced, v);
    }

    /** The synchronous systems' input at {@code latencyMs}: the budget at one call at a time, at least 50. */
    long syncRecords(int latencyMs) {
        return Math.max(50, syncBudget.toMillis() / latencyMs);
    }

    /**
     * The asynchronous input at {@code latencyMs} with {@code bound} calls in flight: {@link #records}, or
     * what the ceiling ({@code bound / latency}) processes in {@link #ASYNC_SECONDS_AT_CEILING} s, if
     * fewer (at least 1,000).
     */
    long asyncRecords(int latencyMs, int bound) {
        long atCeiling = (long) bound * 1000L * ASYNC_SECONDS_AT_CEILING / latencyMs;
        return Math.max(1000, Math.min(records, atCeiling));
    }
}
