package io.weir.samples.pricing;

import io.weir.Topology;
import io.weir.TopologyBuilder;
import io.weir.dsl.Async;
import io.weir.serde.Serdes;
import java.net.URI;
import java.time.Duration;

/**
 * Orders priced by an HTTP service without blocking the stream thread, then totalled per customer.
 *
 * <pre>
 * orders (order id → Order)
 *   → mapValuesAsync price-lookup    GET &lt;pricing&gt;/lookup?key=&lt;product&gt;, header Idempotency-Key;
 *                                    many calls in flight per task; 503s and time-outs retried with
 *                                    back-off; final failures to the dead-letter topic
 *   → groupBy customer               (repartition topic)
 *   → aggregate Spend               (store customer-spend: orders and cents per customer)
 *   → customer-spend (customer → Spend)
 * </pre>
 *
 * <p>The point: a 20 ms lookup per record would cap a synchronous step at 50 records a second per
 * stream thread; here hundreds of calls overlap. Calls in flight at a commit are kept in the
 * step's store {@code price-lookup-in-flight} and made again by whoever runs the task next, so a
 * call may repeat (with the same idempotency key) but every order reaches the totals exactly once.
 */
public final class OrderPricing {

    /** The asynchronous step's name: its node, and its store {@code price-lookup-in-flight}. */
    public static final String STEP = "price-lookup";
    /** The store of each customer's spend; names its changelog and the repartition topic. */
    public static final String STORE = "customer-spend";

    public static final String INPUT_TOPIC = "orders";
    public static final String OUTPUT_TOPIC = "customer-spend";
    /** Where {@link #topology()} looks prices up; the sample command starts its own service instead. */
    public static final URI DEFAULT_PRICING = URI.create("http://127.0.0.1:8090/");

    public static final int DEFAULT_MAX_IN_FLIGHT = 50;
    public static final Duration DEFAULT_CALL_TIMEOUT = Duration.ofSeconds(2);
    public static final int DEFAULT_ATTEMPTS = 4;

    private OrderPricing() {}

    /**
     * The topology with the sample's topics, {@link #DEFAULT_PRICING} and the default step: the
     * provider that {@code weir topology diff}, {@code weir savepoint restore} and {@code weir
     * topics} load with {@code --topology io.weir.samples.pricing.OrderPricing}.
     */
    public static Topology topology() {
        return topology(
                INPUT_TOPIC,
                OUTPUT_TOPIC,
                DEFAULT_PRICING,
                step(DEFAULT_MAX_IN_FLIGHT, DEFAULT_CALL_TIMEOUT, DEFAULT_ATTEMPTS));
    }

    /** Orders from {@code orders}, priced by the service at {@code pricing} with {@code step}, totals to {@code totals}. */
    public static Topology topology(String orders, String totals, URI pricing, Async step) {
        TopologyBuilder b = new TopologyBuilder();
        b.stream(Serdes.strings(), Serdes.json(Order.class), orders)
                .mapValuesAsync(new PriceLookup(pricing, step.timeout()), step)
                .groupBy((orderId, priced) -> priced.customer(), Serdes.strings(), Serdes.json(PricedOrder.class))
                .aggregate(
                        Spend::none, (customer, priced, spend) -> spend.plus(priced), Serdes.json(Spend.class), STORE)
                .toStream()
                .to(totals, Serdes.strings(), Serdes.json(Spend.class));
        return b.build();
    }

    /**
     * The pricing step's options: up to {@code maxInFlight} calls at once per task (orders of
     * different ids overlap; the key is the order id), each attempt cut at {@code callTimeout},
     * up to {@code attempts} attempts for a 503, a time-out or a connection error (100 ms before
     * the first retry, doubling), then the order goes to the dead-letter topic with the reason.
     */
    public static Async step(int maxInFlight, Duration callTimeout, int attempts) {
        return Async.named(STEP)
                .withMaxInFlight(maxInFlight)
                .withTimeout(callTimeout)
                .withRetry(Async.Retry.on(PriceLookup::retryable, attempts))
                .withOnFailure(Async.OnFailure.DEAD_LETTER);
    }
}
