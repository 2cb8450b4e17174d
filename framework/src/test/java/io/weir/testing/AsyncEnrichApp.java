package io.weir.testing;

import io.micrometer.core.instrument.Gauge;
import io.weir.Topology;
import io.weir.TopologyBuilder;
import io.weir.WeirApp;
import io.weir.config.WeirConfig;
import io.weir.dsl.Async;
import io.weir.dsl.AsyncFunction;
import io.weir.dsl.RecordStream;
import io.weir.processor.AsyncCall;
import io.weir.serde.Serdes;
import io.weir.testkit.LookupService;
import java.io.IOException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The application of the asynchronous-step fault tests: enriches each record of {@code input}
 * (String key and value) by a call to a {@link LookupService} through {@link
 * HttpClient#sendAsync} in {@code mapValuesAsync}, with the call's idempotency key in the {@link
 * LookupService#IDEMPOTENCY_HEADER} header, and writes {@code <value>:<answer>} to {@code output};
 * downstream of the step it counts the enriched records per key in the store {@value #TOTALS}
 * and writes each key's new count to {@code totals} (8-byte longs). So a test sees the step's
 * outputs (exactly once, in key order, each with the service's answer for its key) and a state
 * that depends on them (exact counts).
 *
 * <p>A call answered with anything but 200 fails with {@link Unavailable}; {@link Options#retry()}
 * retries that, I/O errors and time-outs (the lookup is a GET). Requests time out after twice the step's time-out, so a hung call's
 * connection is given up soon after the step gave up the call.
 *
 * <p>As a process (run by {@link OpsInstance}, see {@link OpsInstance.Spec#withApp}): args as
 * {@link OpsApp}'s (bootstrap input output stateDir applicationId instanceId threads), then the
 * service's URI, the totals topic and the step's {@link Options#arg()}. Exactly-once; other
 * settings from {@code WEIR_*} environment variables. The gauge {@value #OPEN_CALLS} counts the
 * HTTP calls awaiting their answer. Prints {@link OpsApp#STARTED} with the HTTP port once started.
 */
public final class AsyncEnrichApp {

    /** The store of the counts per key downstream of the step; its changelog is {@code <app>-totals-changelog}. */
    public static final String TOTALS = "totals";
    /** The step's name; its calls in flight at a commit are kept in {@code lookup-in-flight}. */
    public static final String STEP = "lookup";
    /** The gauge of HTTP calls awaiting their answer (Prometheus: {@code it_lookup_calls_open}). */
    public static final String OPEN_CALLS = "it.lookup.calls.open";

    private AsyncEnrichApp() {}

    /**
     * The step's options, as one command-line argument.
     *
     * @param attempts   calls in all per record; retries only {@link Unavailable}, I/O errors and time-outs
     * @param backoff    the wait before the first retry, doubling up to {@code maxBackoff}
     */
    public record Options(
            int maxInFlight,
            Duration timeout,
            int attempts,
            Duration backoff,
            Duration maxBackoff,
            Async.OnFailure onFailure) {

        /** No retries, dead letters. */
        public static Options deadLetters(int maxInFlight, Duration timeout) {
            return new Options(maxInFlight, timeout, 1, Duration.ZERO, Duration.ZERO, Async.OnFailure.DEAD_LETTER);
        }

        public Options withRetries(int attempts, Duration backoff, Duration maxBackoff) {
            return new Options(maxInFlight, timeout, attempts, backoff, maxBackoff, onFailure);
        }

        public Options withOnFailure(Async.OnFailure onFailure) {
            return new Options(maxInFlight, timeout, attempts, backoff, maxBackoff, onFailure);
        }

        public Async.Retry retry() {
            return attempts == 1
                    ? Async.Retry.none()
                    : new Async.Retry(attempts, backoff, maxBackoff, Options::retryable);
        }

        public Async async() {
            return Async.named(STEP)
                    .withMaxInFlight(maxInFlight)
                    .withTimeout(timeout)
                    .withRetry(retry())
                    .withOnFailure(onFailure);
        }

        /**
         * A 503, a connection refused or lost (an idle connection the service closed as the
         * request went out on it, local ports running out for a moment), or a time-out: worth
         * another attempt.
         */
        private static boolean retryable(Throwable e) {
            return e instanceof Unavailable || e instanceof IOException || e instanceof TimeoutException;
        }

        /** {@code maxInFlight,timeoutMs,attempts,backoffMs,maxBackoffMs,onFailure}. */
        public String arg() {
            return maxInFlight + "," + timeout.toMillis() + "," + attempts + "," + backoff.toMillis() + ","
                    + maxBackoff.toMillis() + "," + onFailure;
        }

        public static Options parse(String arg) {
            String[] p = arg.split(",");
            return new Options(
                    Integer.parseInt(p[0]),
                    Duration.ofMillis(Long.parseLong(p[1])),
                    Integer.parseInt(p[2]),
                    Duration.ofMillis(Long.parseLong(p[3])),
                    Duration.ofMillis(Long.parseLong(p[4])),
                    Async.OnFailure.valueOf(p[5]));
        }
    }

    /** The service answered with a status other than 200 (down, or a failed share of its calls). */
    public static final class Unavailable extends RuntimeException {
        public Unavailable(String message) {
            super(message);
        }
    }

    /** The lookup as an asynchronous step's function, counting the HTTP calls awaiting their answer. */
    public static final class Lookup implements AsyncFunction<String, String, String> {
        private final HttpClient http;
        private final URI service;
        private final Duration requestTimeout;
        private final AtomicInteger open = new AtomicInteger();

        public Lookup(URI service, Duration stepTimeout) {
            this.http = HttpClient.newBuilder()
                    .version(HttpClient.Version.HTTP_1_1)
                    .connectTimeout(Duration.ofSeconds(5))
                    .build();
            this.service = service;
            this.requestTimeout = stepTimeout.multipliedBy(2);
        }

        @Override
        public CompletableFuture<String> apply(String key, String value, AsyncCall call) {
            HttpRequest request = HttpRequest.newBuilder(
                            service.resolve("/lookup?key=" + URLEncoder.encode(key, StandardCharsets.UTF_8)))
                    .header(LookupService.IDEMPOTENCY_HEADER, call.idempotencyKey())
                    .timeout(requestTimeout)
                    .GET()
                    .build();
            open.incrementAndGet();
            return http.sendAsync(request, HttpResponse.BodyHandlers.ofString())
                    .whenComplete((r, e) -> open.decrementAndGet())
                    .thenApply(r -> {
                        if (r.statusCode() != 200) {
                            throw new Unavailable("lookup of " + key + " answered " + r.statusCode() + " " + r.body());
                        }
                        return value + ":" + r.body();
                    });
        }

        /** HTTP calls sent and not answered yet. */
        public int open() {
            return open.get();
        }
    }

    /** Enriches {@code input} to {@code output} through {@code lookup}, and counts per key to {@code totals}. */
    public static Topology topology(String input, String output, String totals, Lookup lookup, Options options) {
        TopologyBuilder b = new TopologyBuilder();
        RecordStream<String, String> enriched =
                b.stream(Serdes.strings(), Serdes.strings(), input).mapValuesAsync(lookup, options.async());
        enriched.to(output, Serdes.strings(), Serdes.strings());
        enriched.groupByKey().count(TOTALS).toStream().to(totals, Serdes.strings(), Serdes.longs());
        return b.build();
    }

    public static void main(String[] args) throws Exception {
        Options options = Options.parse(args[9]);
        Lookup lookup = new Lookup(URI.create(args[7]), options.timeout());
        WeirConfig config =
                OpsApp.config(args).set("processing.guarantee", "exactly_once").build();
        WeirApp app = WeirApp.create(topology(args[1], args[2], args[8], lookup, options), config);
        Gauge.builder(OPEN_CALLS, lookup, Lookup::open).register(app.meterRegistry());
        app.start();
        OpsApp.announce(app);
        System.out.flush();
        app.runUntilShutdown();
        System.out.println("STOPPED");
        System.out.flush();
    }
}
