package io.weir.benchmarks.enrich;

import io.weir.testkit.LookupService;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.HdrHistogram.Histogram;
import org.HdrHistogram.Recorder;

/**
 * How every system of the {@code enrich} workload calls the {@link LookupService}: one JDK
 * {@link HttpClient} (HTTP/1.1: one connection per concurrent call, kept alive and reused), a
 * blocking call with retries for the synchronous systems and Parallel Consumer, one asynchronous
 * attempt for Weir's asynchronous step (which retries itself). It counts what it sees from the
 * caller's side: each call's time (request to answer), the calls in flight (sampled as each call
 * starts) and the retried failures, so that every system is measured by the same instrument.
 *
 * <p>Threading: any thread.
 */
final class LookupClient {

    /** Attempts of a blocking call (a failed one is retried at once). */
    static final int ATTEMPTS = 10;

    private static final Duration REQUEST_TIMEOUT = Duration.ofSeconds(30);

    private final LookupService service;
    private final HttpClient http = HttpClient.newBuilder()
            .version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(5))
            .build();
    private final AtomicInteger inFlight = new AtomicInteger();
    private final Recorder callMicros = new Recorder(3);
    private final Recorder inFlightSamples = new Recorder(3);
    private final AtomicLong failures = new AtomicLong();

    LookupClient(LookupService service) {
        this.service = service;
    }

    /** The service's answer for {@code key}, calling again on a failure, at most {@link #ATTEMPTS} times. */
    String call(String key, String idempotencyKey) {
        IOException last = null;
        for (int attempt = 1; attempt <= ATTEMPTS; attempt++) {
            long started = begin();
            try {
                HttpResponse<String> r = http.send(request(key, idempotencyKey), HttpResponse.BodyHandlers.ofString());
                if (r.statusCode() == 200) {
                    return r.body();
                }
                failures.incrementAndGet();
                last = new IOException("the lookup service answered " + r.statusCode());
            } catch (IOException e) {
                failures.incrementAndGet();
                last = e;
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("interrupted while calling the lookup service", e);
            } finally {
                end(started);
            }
        }
        throw new UncheckedIOException("the lookup of " + key + " failed " + ATTEMPTS + " times", last);
    }

    /** One attempt: completes with the answer, or exceptionally on a failure (the caller retries). */
    CompletableFuture<String> callAsync(String key, String idempotencyKey) {
        long started = begin();
        return http.sendAsync(request(key, idempotencyKey), HttpResponse.BodyHandlers.ofString())
                .whenComplete((r, e) -> end(started))
                .thenApply(r -> {
                    if (r.statusCode() != 200) {
                        failures.incrementAndGet();
                        throw new CompletionException(new IOException("the lookup service answered " + r.statusCode()));
                    }
                    return r.body();
                });
    }

    private HttpRequest request(String key, String idempotencyKey) {
        HttpRequest.Builder b = HttpRequest.newBuilder(service.lookup(key))
                .timeout(REQUEST_TIMEOUT)
                .GET();
        if (idempotencyKey != null) {
            b.header(LookupService.IDEMPOTENCY_HEADER, idempotencyKey);
        }
        return b.build();
    }

    private long begin() {
        inFlightSamples.recordValue(inFlight.incrementAndGet());
        return System.nanoTime();
    }

    private void end(long started) {
        inFlight.decrementAndGet();
        callMicros.recordValue(Math.max(0, (System.nanoTime() - started) / 1000));
    }

    /** What the calls since the last snapshot saw; resets. */
    Snapshot snapshot() {
        return new Snapshot(
                callMicros.getIntervalHistogram(), inFlightSamples.getIntervalHistogram(), failures.getAndSet(0));
    }

    /**
     * Calls' times in microseconds, the calls in flight as each call started, and the failures
     * (retried) since the last snapshot.
     */
    record Snapshot(Histogram callMicros, Histogram inFlight, long failures) {

        long calls() {
            return callMicros.getTotalCount();
        }

        double callMs(double percentile) {
            return callMicros.getTotalCount() == 0 ? Double.NaN : callMicros.getValueAtPercentile(percentile) / 1000.0;
        }

        double meanCallMs() {
            return callMicros.getTotalCount() == 0 ? Double.NaN : callMicros.getMean() / 1000.0;
        }

        double meanInFlight() {
            return inFlight.getTotalCount() == 0 ? Double.NaN : inFlight.getMean();
        }

        long maxInFlight() {
            return inFlight.getTotalCount() == 0 ? 0 : inFlight.getMaxValue();
        }
    }
}
