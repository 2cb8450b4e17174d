package io.weir.benchmarks.enrich;

import io.weir.TopologyBuilder;
import io.weir.WeirApp;
import io.weir.benchmarks.SystemUnderTest;
import io.weir.benchmarks.input.Workload;
import io.weir.benchmarks.systems.ClientSettings;
import io.weir.benchmarks.systems.WeirRunner;
import io.weir.config.WeirConfig;
import io.weir.dsl.Async;
import io.weir.dsl.RecordStream;
import io.weir.serde.Serdes;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;

/**
 * The enrichment in Weir, one stream thread, exactly-once, the benchmark's shared client settings
 * and commit interval, HTTP endpoints off:
 *
 * <ul>
 *   <li>{@value #SYNC}: the blocking call in {@code mapValues}, as a Kafka Streams user writes it;</li>
 *   <li>{@value #ASYNC}: {@code mapValuesAsync} with {@code HttpClient.sendAsync}, the call's
 *       idempotency key in the {@code Idempotency-Key} header, per-key order (the default), the
 *       bound spread over the input's tasks ({@code maxInFlight} is per task), failed calls
 *       retried at once up to {@link LookupClient#ATTEMPTS} attempts, a final failure failing the
 *       task (so that it cannot hide in dead letters).</li>
 * </ul>
 */
final class WeirEnrich implements EnrichSystem {

    static final String SYNC = "weir_sync";
    static final String ASYNC = "weir_async";

    private static final Duration CLOSE_TIMEOUT = Duration.ofSeconds(30);

    private final int bound;

    private WeirEnrich(int bound) {
        this.bound = bound;
    }

    static WeirEnrich sync() {
        return new WeirEnrich(1);
    }

    /** {@code bound} calls in flight over the input's {@value Workload#PARTITIONS} tasks. */
    static WeirEnrich async(int bound) {
        return new WeirEnrich(bound);
    }

    @Override
    public String name() {
        return bound == 1 ? SYNC : ASYNC;
    }

    @Override
    public int inFlightBound() {
        return bound;
    }

    /** The per-task bound: the instance's divided over the tasks, rounded up. */
    int perTask() {
        return (bound + Workload.PARTITIONS - 1) / Workload.PARTITIONS;
    }

    @Override
    public SystemUnderTest.Running start(Run run) {
        TopologyBuilder builder = new TopologyBuilder();
        RecordStream<String, String> input = builder.stream(Serdes.strings(), Serdes.strings(), run.inputTopic());
        LookupClient lookups = run.lookups();
        RecordStream<String, String> enriched = synchronous()
                ? input.mapValues((String k, String v) -> EnrichRecords.enriched(v, lookups.call(k, null)))
                : input.mapValuesAsync(
                        (k, v, call) -> lookups.callAsync(k, call.idempotencyKey())
                                .thenApply(answer -> EnrichRecords.enriched(v, answer)),
                        Async.named("lookup")
                                .withMaxInFlight(perTask())
                                .withRetry(
                                        new Async.Retry(LookupClient.ATTEMPTS, Duration.ZERO, Duration.ZERO, e -> true))
                                .withOnFailure(Async.OnFailure.FAIL));
        enriched.to(run.outputTopic(), Serdes.strings(), Serdes.strings());
        WeirApp app = WeirApp.create(builder.build(), config(run)).start();
        return new SystemUnderTest.Running() {
            @Override
            public Optional<Throwable> failure() {
                return WeirRunner.failureOf(app);
            }

            @Override
            public void close() {
                app.close(CLOSE_TIMEOUT);
            }
        };
    }

    private static WeirConfig config(Run run) {
        WeirConfig.Builder b = WeirConfig.builder()
                .applicationId(run.applicationId())
                .bootstrapServers(run.bootstrapServers())
                .set("processing.guarantee", "exactly_once")
                .set("num.stream.threads", 1)
                .set("commit.interval.ms", ClientSettings.COMMIT_INTERVAL.toMillis())
                .set("state.dir", run.stateDir().toString())
                .set("http.port", -1)
                .environment(Map.of());
        ClientSettings.producer().forEach((k, v) -> b.set("producer." + k, v));
        b.set("consumer.auto.offset.reset", "earliest");
        return b.build();
    }
}
