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
import io.weir.processor.AsyncProcessor;
import io.weir.processor.ProcessorContext;
import io.weir.processor.Record;
import io.weir.processor.Stores;
import io.weir.serde.Serdes;
import io.weir.state.KeyValueStore;
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
 * <p>With the number of keys as the last argument the step is instead an {@link AsyncProcessor}
 * ({@link CountingLookup}) that keeps each key's records so far in the store {@value #SEEN} and
 * checks it against the input's position in the key's sequence, at the call and at its completion:
 * read-your-writes, and that no store write of a completion was lost or repeated.
 *
 * <p>As a process (run by {@link OpsInstance}, see {@link OpsInstance.Spec#withApp}): args as
 * {@link OpsApp}'s (bootstrap input output stateDir applicationId instanceId threads), then the
 * service's URI, the totals topic, the step's {@link Options#arg()} and optionally the number of
 * keys. Exactly-once; other
 * settings from {@code WEIR_*} environment variables. The gauge {@value #OPEN_CALLS} counts the
 * HTTP calls awaiting their answer. Prints {@link OpsApp#STARTED} with the HTTP port once started.
 */
public final class AsyncEnrichApp {

    /** The store of the counts per key downstream of the step; its changelog is {@code <app>-totals-changelog}. */
    public static final String TOTALS = "totals";
    /** {@link CountingLookup}'s store: each key's records completed so far. */
    public static final String SEEN = "seen";
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
            Async.OnFailure onFailure,
            int maxInFlightPerInstance) {

        /** No retries, dead letters. */
        public static Options deadLetters(int maxInFlight, Duration timeout) {
            return new Options(maxInFlight, timeout, 1, Duration.ZERO, Duration.ZERO, Async.OnFailure.DEAD_LETTER, 0);
        }

        public Options withRetries(int attempts, Duration backoff, Duration maxBackoff) {
            return new Options(maxInFlight, timeout, attempts, backoff, maxBackoff, onFailure, maxInFlightPerInstance);
        }

        public Options withOnFailure(Async.OnFailure onFailure) {
            return new Options(maxInFlight, timeout, attempts, backoff, maxBackoff, onFailure, maxInFlightPerInstance);
        }

        public Options withMaxInFlightPerInstance(int maxInFlightPerInstance) {
            return new Options(maxInFlight, timeout, attempts, backoff, maxBackoff, onFailure, maxInFlightPerInstance);
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
                    .withOnFailure(onFailure)
                    .withMaxInFlightPerInstance(maxInFlightPerInstance);
        }

        /**
         * A 503, a connection refused or lost (an idle connection the service closed as the
         * request went out on it, local ports running out for a moment), or a time-out: worth
         * another attempt.
         */
        private static boolean retryable(Throwable e) {
            return e instanceof Unavailable || e instanceof IOException || e instanceof TimeoutException;
        }

        /** {@code maxInFlight,timeoutMs,attempts,backoffMs,maxBackoffMs,onFailure,maxInFlightPerInstance}. */
        public String arg() {
            return maxInFlight + "," + timeout.toMillis() + "," + attempts + "," + backoff.toMillis() + ","
                    + maxBackoff.toMillis() + "," + onFailure + "," + maxInFlightPerInstance;
        }

        public static Options parse(String arg) {
            String[] p = arg.split(",");
            return new Options(
                    Integer.parseInt(p[0]),
                    Duration.ofMillis(Long.parseLong(p[1])),
                    Integer.parseInt(p[2]),
                    Duration.ofMillis(Long.parseLong(p[3])),
                    Duration.ofMillis(Long.parseLong(p[4])),
                    Async.OnFailure.valueOf(p[5]),
                    Integer.parseInt(p[6]));
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

    /**
     * The lookup as an {@link AsyncProcessor} over the inputs {@code n} of the IT's model (key {@code
     * k<n % keys>}): before record {@code n}'s call and again at its completion, the store {@value
     * #SEEN} must hold {@code n / keys} records of its key, every earlier record of the key and
     * none later; the completion counts the record and forwards the enriched value. A mismatch
     * fails the record (a dead letter naming both counts).
     */
    public static final class CountingLookup implements AsyncProcessor<String, String, String, String, String> {
        private final Lookup lookup;
        private final int keys;
        private ProcessorContext<String, String> context;
        private KeyValueStore<String, Long> seen;

        public CountingLookup(Lookup lookup, int keys) {
            this.lookup = lookup;
            this.keys = keys;
        }

        @Override
        public void init(ProcessorContext<String, String> context) {
            this.context = context;
            this.seen = context.getStateStore(SEEN);
        }

        @Override
        public CompletableFuture<String> call(Record<String, String> record, AsyncCall call) {
            long before = check(record, "call");
            return lookup.apply(record.key(), record.value(), call).thenApply(enriched -> enriched + "@" + before);
        }

        @Override
        public void complete(Record<String, String> record, String result) {
            long before = check(record, "completion");
            if (!result.endsWith("@" + before)) {
                throw new IllegalStateException("record " + record.value() + " of " + record.key() + ": the call saw "
                        + result.substring(result.lastIndexOf('@') + 1) + " records of its key, the completion "
                        + before);
            }
            seen.put(record.key(), before + 1);
            context.forward(record.withValue(result.substring(0, result.lastIndexOf('@'))));
        }

        private long check(Record<String, String> record, String when) {
            Long stored = seen.get(record.key());
            long before = stored == null ? 0 : stored;
            long expected = Long.parseLong(record.value()) / keys;
            if (before != expected) {
                throw new IllegalStateException("record " + record.value() + " of " + record.key() + " at its " + when
                        + ": store " + SEEN + " holds " + before + " records of the key, expected " + expected);
            }
            return before;
        }
    }

    /** Enriches {@code input} to {@code output} through {@code lookup}, and counts per key to {@code totals}. */
    public static Topology topology(String input, String output, String totals, Lookup lookup, Options options) {
        TopologyBuilder b = new TopologyBuilder();
        RecordStream<String, String> enriched =
                b.stream(Serdes.strings(), Serdes.strings(), input).mapValuesAsync(lookup, options.async());
        return counted(b, enriched, output, totals);
    }

    /** As {@link #topology}, the step a {@link CountingLookup} over {@code keys} keys. */
    public static Topology processorTopology(
            String input, String output, String totals, Lookup lookup, Options options, int keys) {
        TopologyBuilder b = new TopologyBuilder();
        b.addStateStore(Stores.keyValueStore(SEEN, Serdes.strings(), Serdes.longs()));
        RecordStream<String, String> enriched = b.stream(Serdes.strings(), Serdes.strings(), input)
                .processAsync(() -> new CountingLookup(lookup, keys), options.async(), SEEN)
                .withSerdes(Serdes.strings(), Serdes.strings());
        return counted(b, enriched, output, totals);
    }

    private static Topology counted(
            TopologyBuilder b, RecordStream<String, String> enriched, String output, String totals) {
        enriched.to(output, Serdes.strings(), Serdes.strings());
        enriched.groupByKey().count(TOTALS).toStream().to(totals, Serdes.strings(), Serdes.longs());
        return b.build();
    }

    public static void main(String[] args) throws Exception {
        Options options = Options.parse(args[9]);
        Lookup lookup = new Lookup(URI.create(args[7]), options.timeout());
        WeirConfig config =
                OpsApp.config(args).set("processing.guarantee", "exactly_once").build();
        Topology topology = args.length > 10
                ? processorTopology(args[1], args[2], args[8], lookup, options, Integer.parseInt(args[10]))
                : topology(args[1], args[2], args[8], lookup, options);
        WeirApp app = WeirApp.create(topology, config);
        Gauge.builder(OPEN_CALLS, lookup, Lookup::open).register(app.meterRegistry());
        app.start();
        OpsApp.announce(app);
        System.out.flush();
        app.runUntilShutdown();
        System.out.println("STOPPED");
        System.out.flush();
    }
}
