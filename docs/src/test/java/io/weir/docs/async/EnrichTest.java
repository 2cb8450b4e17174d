package io.weir.docs.async;

import static org.assertj.core.api.Assertions.assertThat;

import io.weir.Topology;
import io.weir.TopologyBuilder;
import io.weir.dsl.Async;
import io.weir.dsl.RecordStream;
import io.weir.serde.Serdes;
import io.weir.testdriver.TestDriver;
import io.weir.testdriver.TestRecord;
import io.weir.testkit.LookupService;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import org.junit.jupiter.api.Test;

/** docs/async.md: an order stream priced by an HTTP service, and the test of the order calls finish in. */
class EnrichTest {

    /** A transient failure of the pricing service, worth another attempt. */
    static final class Unavailable extends IOException {
        Unavailable(String message) {
            super(message);
        }
    }

    static Topology pricing(URI service) {
        TopologyBuilder builder = new TopologyBuilder();
        // tag::enrich[]
        HttpClient http = HttpClient.newHttpClient();
        RecordStream<String, String> orders = builder.stream(Serdes.strings(), Serdes.strings(), "orders");
        orders.mapValuesAsync(
                        (product, order, call) -> http.sendAsync(
                                        HttpRequest.newBuilder(service.resolve("/lookup?key=" + product))
                                                .header("Idempotency-Key", call.idempotencyKey())
                                                .timeout(Duration.ofSeconds(2))
                                                .build(),
                                        HttpResponse.BodyHandlers.ofString())
                                .thenApply(response -> {
                                    if (response.statusCode() == 503) {
                                        throw new java.util.concurrent.CompletionException(
                                                new Unavailable("pricing answered 503"));
                                    }
                                    return order + " at " + response.body();
                                }),
                        Async.named("price-lookup")
                                .withMaxInFlight(500)
                                .withTimeout(Duration.ofSeconds(3))
                                .withRetry(Async.Retry.on(e -> e instanceof Unavailable, 5)))
                .to("priced-orders", Serdes.strings(), Serdes.strings());
        // end::enrich[]
        return builder.build();
    }

    @Test
    void everyOrderIsPricedOnceThroughTheRealService() {
        try (LookupService service = LookupService.start(Duration.ofMillis(2), Duration.ofMillis(1), 0.1);
                TestDriver driver = TestDriver.builder(pricing(service.uri())).build()) {
            for (int i = 0; i < 20; i++) {
                driver.pipe("orders", "p" + (i % 4), "order-" + i, 1_000 + i);
            }
            List<TestRecord<String, String>> priced =
                    driver.output("priced-orders", Serdes.strings(), Serdes.strings());
            assertThat(priced).hasSize(20);
            assertThat(priced).allSatisfy(r -> assertThat(r.value()).endsWith(" at " + LookupService.answer(r.key())));
            assertThat(driver.deadLetters()).isEmpty();
        }
    }

    @Test
    void testsChooseTheOrderCallsFinishIn() {
        // tag::by-hand[]
        List<CompletableFuture<String>> calls = new java.util.ArrayList<>();
        TopologyBuilder builder = new TopologyBuilder();
        builder.stream(Serdes.strings(), Serdes.strings(), "orders")
                .mapValuesAsync(order -> {
                    CompletableFuture<String> call = new CompletableFuture<>();
                    calls.add(call);
                    return (CompletionStage<String>) call;
                })
                .to("priced-orders", Serdes.strings(), Serdes.strings());
        try (TestDriver driver =
                TestDriver.builder(builder.build()).completeCallsByHand().build()) {
            driver.pipe("orders", "p1", "first", 1_000);
            driver.pipe("orders", "p2", "second", 2_000);
            calls.get(1).complete("second priced"); // the later call finishes first
            driver.commit();
            assertThat(driver.output("priced-orders", Serdes.strings(), Serdes.strings()))
                    .extracting(TestRecord::value)
                    .containsExactly("second priced"); // p2 is not held back by p1
            assertThat(driver.inFlight()).isEqualTo(1);
        }
        // end::by-hand[]
    }
}
