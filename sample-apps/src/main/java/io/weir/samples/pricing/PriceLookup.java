package io.weir.samples.pricing;

import io.weir.dsl.AsyncFunction;
import io.weir.processor.AsyncCall;
import io.weir.testkit.LookupService;
import java.io.IOException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.TimeoutException;

/**
 * The asynchronous call of the pricing step: {@code GET <service>/lookup?key=<product>} with
 * {@link HttpClient#sendAsync}, which answers the product's unit price in cents as text (the
 * testkit's {@link LookupService} is such a service). The stream thread only starts the request;
 * the response completes the stage on the client's threads.
 *
 * <p>Each request carries the record's {@link AsyncCall#idempotencyKey()} in the header {@value
 * LookupService#IDEMPOTENCY_HEADER}: the same for a retry and for a call made again after a crash
 * or a rebalance, so a service that charges or reserves something can tell a repeat from a new
 * order. A {@code 503} fails the attempt with {@link Unavailable}, which {@link #retryable} calls
 * worth a retry, as it does a time-out and a connection error; any other status is final.
 *
 * <p>Threading: {@link #apply} runs on the stream thread; the client is safe for concurrent use.
 */
final class PriceLookup implements AsyncFunction<String, Order, PricedOrder> {

    private final HttpClient http;
    private final URI service;
    private final Duration timeout;

    /**
     * @param service the pricing service's base URI, e.g. {@code http://127.0.0.1:8090/}
     * @param timeout how long one request may take (the step's own time-out, so the client gives
     *                up on a request when the step does)
     */
    PriceLookup(URI service, Duration timeout) {
        this.service = service;
        this.timeout = timeout;
        this.http = HttpClient.newBuilder()
                .version(HttpClient.Version.HTTP_1_1)
                .connectTimeout(timeout)
                .build();
    }

    @Override
    public CompletionStage<PricedOrder> apply(String orderId, Order order, AsyncCall call) {
        HttpRequest request = HttpRequest.newBuilder(priceOf(order.product()))
                .header(LookupService.IDEMPOTENCY_HEADER, call.idempotencyKey())
                .timeout(timeout)
                .GET()
                .build();
        return http.sendAsync(request, HttpResponse.BodyHandlers.ofString())
                .thenApply(response -> order.priced(unitCents(order.product(), response)));
    }

    /** True for failures worth another attempt: the service busy (503), slow, or not reachable. */
    static boolean retryable(Throwable failure) {
        return failure instanceof Unavailable || failure instanceof TimeoutException || failure instanceof IOException;
    }

    /** The price in cents a successful response's body gives. */
    static long unitCents(String body) {
        return Long.parseLong(body.trim());
    }

    private URI priceOf(String product) {
        return service.resolve("/lookup?key=" + URLEncoder.encode(product, StandardCharsets.UTF_8));
    }

    private static long unitCents(String product, HttpResponse<String> response) {
        return switch (response.statusCode()) {
            case 200 -> unitCents(response.body());
            case 503 -> throw new Unavailable(product);
            default ->
                throw new IllegalStateException("pricing service answered " + response.statusCode() + " for " + product
                        + ": " + response.body());
        };
    }

    /** The pricing service answered 503: busy or down for now. */
    static final class Unavailable extends RuntimeException {
        Unavailable(String product) {
            super("pricing service unavailable (503) for " + product, null, false, false);
        }
    }
}
