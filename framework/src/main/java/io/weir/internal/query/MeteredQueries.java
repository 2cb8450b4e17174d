package io.weir.internal.query;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import io.weir.internal.http.QueryAnswer;
import io.weir.internal.http.StoreQueryView;
import io.weir.internal.metrics.WeirMeter;
import java.util.Map;

/**
 * Times every query the instance answers: the timer {@code weir.query.requests} (its count is the
 * requests, its total the time spent answering) with tags {@code kind} ({@code key},
 * {@code windows}, {@code sessions}, {@code scan}) and {@code outcome}: {@code local} (read here),
 * {@code forwarded} (answered by another instance), {@code not_found}, {@code unavailable} (503:
 * a task moving or restoring; a rising rate of these is what an operator watches),
 * {@code bad_request}, {@code unknown_store}, or {@code other}.
 */
public final class MeteredQueries implements StoreQueryView {

    private final StoreQueryView queries;
    private final MeterRegistry registry;
    private final String applicationId;
    private final Ownership ownership;
    /** The timers by kind and outcome, built once each: a query should not rebuild a meter id. */
    private final java.util.concurrent.ConcurrentMap<String, Timer> timers =
            new java.util.concurrent.ConcurrentHashMap<>();

    public MeteredQueries(StoreQueryView queries, MeterRegistry registry, String applicationId, Ownership ownership) {
        this.queries = queries;
        this.registry = registry;
        this.applicationId = applicationId;
        this.ownership = ownership;
    }

    @Override
    public QueryAnswer answer(KeyQuery query) {
        long start = System.nanoTime();
        QueryAnswer a = queries.answer(query);
        record(query.target().name().toLowerCase(java.util.Locale.ROOT).replace("value", "key"), a, start);
        return a;
    }

    @Override
    public QueryAnswer scan(String store, Map<String, String> params) {
        long start = System.nanoTime();
        QueryAnswer a = queries.scan(store, params);
        record("scan", a, start);
        return a;
    }

    private void record(String kind, QueryAnswer a, long startNanos) {
        String outcome = outcome(a);
        String instance = ownership.instanceId();
        timers.computeIfAbsent(
                        instance + "/" + kind + "/" + outcome,
                        k -> WeirMeter.QUERY_REQUESTS
                                .timer()
                                .tags(
                                        "application",
                                        applicationId,
                                        "instance",
                                        instance,
                                        "kind",
                                        kind,
                                        "outcome",
                                        outcome)
                                .register(registry))
                .record(System.nanoTime() - startNanos, java.util.concurrent.TimeUnit.NANOSECONDS);
    }

    private String outcome(QueryAnswer a) {
        return switch (a.status()) {
            case 200 -> a.body().path("instance").asText().equals(ownership.instanceId()) ? "local" : "forwarded";
            case 404 -> a.body().path("error").asText().equals("unknown_store") ? "unknown_store" : "not_found";
            case 503 -> "unavailable";
            case 400 -> "bad_request";
            default -> "other";
        };
    }
}
