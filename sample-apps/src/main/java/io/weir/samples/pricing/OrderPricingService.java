package io.weir.samples.pricing;

import io.weir.samples.common.RecordGenerator;
import io.weir.samples.common.ServedSample;
import io.weir.serde.Serdes;
import io.weir.testkit.LookupService;
import java.net.URI;
import java.time.Duration;
import java.util.Random;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Order pricing as a served sample ({@code serve order-pricing}, {@code load order-pricing}): reads
 * {@code orders}, writes {@code customer-spend}, and prices from the service the variable {@value
 * #PRICING_SERVICE_URL} names ({@code GET <url>/lookup?key=<product>} answering cents as text); without
 * it, from a {@link LookupService} started in the process (20 ms ± 5 ms, 1% answered 503), which
 * lives as long as the process. The load sends orders of 100 customers for 1,000 products.
 */
public final class OrderPricingService {

    /** The variable naming the pricing service's base URL, e.g. {@code http://pricing:8090/}. */
    public static final String PRICING_SERVICE_URL = "PRICING_SERVICE_URL";

    private static final Logger log = LoggerFactory.getLogger(OrderPricingService.class);
    private static final int CUSTOMERS = 100;
    private static final int PRODUCTS = 1_000;
    /** The in-process pricing service, once started; guarded by the class. */
    private static LookupService inProcess;

    private OrderPricingService() {}

    public static ServedSample sample() {
        return new ServedSample(
                "order-pricing",
                "order-pricing",
                OrderPricing.INPUT_TOPIC,
                OrderPricing.OUTPUT_TOPIC,
                (in, out) -> OrderPricing.topology(
                        in,
                        out,
                        pricing(System.getenv(PRICING_SERVICE_URL)),
                        OrderPricing.step(
                                OrderPricing.DEFAULT_MAX_IN_FLIGHT,
                                OrderPricing.DEFAULT_CALL_TIMEOUT,
                                OrderPricing.DEFAULT_ATTEMPTS)),
                () -> orders(System.nanoTime()));
    }

    /** {@code url}, or when it is unset, the in-process service's (started on first use). */
    static synchronized URI pricing(String url) {
        if (url != null && !url.isBlank()) {
            return URI.create(url);
        }
        if (inProcess == null) {
            inProcess = LookupService.start(Duration.ofMillis(20), Duration.ofMillis(5), 0.01);
            log.info("No {}: pricing from a service in this process on {}", PRICING_SERVICE_URL, inProcess.uri());
        }
        return inProcess.uri();
    }

    /** Live orders chosen by {@code seed}, keyed {@code order-live-<n>}. */
    static RecordGenerator orders(long seed) {
        Random random = new Random(seed);
        long[] count = {0};
        return (topic, timestamp) -> {
            Order o = new Order(
                    "order-live-" + count[0]++,
                    String.format("customer-%02d", random.nextInt(CUSTOMERS)),
                    String.format("product-%03d", random.nextInt(PRODUCTS)),
                    1 + random.nextInt(5));
            return new ProducerRecord<>(
                    topic,
                    null,
                    timestamp,
                    Serdes.strings().serialize(topic, o.id()),
                    Serdes.json(Order.class).serialize(topic, o));
        };
    }
}
