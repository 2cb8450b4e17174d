package io.weir.docs.async;

import static org.assertj.core.api.Assertions.assertThat;

import io.weir.Topology;
import io.weir.TopologyBuilder;
import io.weir.dsl.Async;
import io.weir.processor.AsyncCall;
import io.weir.processor.AsyncProcessor;
import io.weir.processor.ProcessorContext;
import io.weir.processor.Record;
import io.weir.processor.Stores;
import io.weir.serde.Serdes;
import io.weir.state.KeyValueStore;
import io.weir.testdriver.TestDriver;
import io.weir.testdriver.TestRecord;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.function.BiFunction;
import org.junit.jupiter.api.Test;

/** docs/async.md: an asynchronous processor with a store, and an enrichment with a cache. */
class FraudScoreTest {

    /** The scoring service's client: a score for a payment, given the card's recent total. */
    interface ScoringClient {
        CompletionStage<Double> score(String card, long amount, long recentTotal, String idempotencyKey);
    }

    // tag::processor[]
    /** Flags payments the scoring service finds risky; keeps each card's running total. */
    static final class FraudCheck implements AsyncProcessor<String, Long, String, String, Double> {
        private final ScoringClient scoring;
        private ProcessorContext<String, String> context;
        private KeyValueStore<String, Long> totals;

        FraudCheck(ScoringClient scoring) {
            this.scoring = scoring;
        }

        @Override
        public void init(ProcessorContext<String, String> context) {
            this.context = context;
            this.totals = context.getStateStore("card-totals");
        }

        @Override // on the stream thread: read the store, start the call
        public CompletionStage<Double> call(Record<String, Long> payment, AsyncCall call) {
            long total = totals.get(payment.key()) == null ? 0 : totals.get(payment.key());
            return scoring.score(payment.key(), payment.value(), total, call.idempotencyKey());
        }

        @Override // on the stream thread, once the call finished: write the store, forward
        public void complete(Record<String, Long> payment, Double score) {
            Long total = totals.get(payment.key());
            totals.put(payment.key(), (total == null ? 0 : total) + payment.value());
            if (score > 0.9) {
                context.forward(payment.withValue("risky payment of " + payment.value()));
            }
        }
    }
    // end::processor[]

    static Topology fraud(ScoringClient scoring) {
        TopologyBuilder builder = new TopologyBuilder();
        // tag::processor-wiring[]
        builder.addStateStore(Stores.keyValueStore("card-totals", Serdes.strings(), Serdes.longs()));
        builder.stream(Serdes.strings(), Serdes.longs(), "payments")
                .processAsync(() -> new FraudCheck(scoring), Async.named("fraud-check"), "card-totals")
                .to("alerts", Serdes.strings(), Serdes.strings());
        // end::processor-wiring[]
        return builder.build();
    }

    @Test
    void eachCallSeesTheTotalThePreviousPaymentOfItsCardWrote() {
        // Risky when the card already spent over 1,000: only right if each call sees the last total.
        ScoringClient scoring =
                (card, amount, total, key) -> CompletableFuture.supplyAsync(() -> total > 1_000 ? 0.95 : 0.1);
        try (TestDriver driver = TestDriver.builder(fraud(scoring)).build()) {
            driver.pipe("payments", "card-1", 800L, 1_000);
            driver.pipe("payments", "card-1", 400L, 2_000);
            driver.pipe("payments", "card-1", 50L, 3_000);
            assertThat(driver.output("alerts", Serdes.strings(), Serdes.strings()))
                    .extracting(TestRecord::value)
                    .containsExactly("risky payment of 50");
            assertThat(driver.<String, Long>store("card-totals").get("card-1")).isEqualTo(1_250L);
        }
    }

    @Test
    void customersAreLookedUpOncePerMinute() {
        java.util.List<String> lookups = new java.util.ArrayList<>();
        BiFunction<String, String, CompletionStage<String>> customers = (id, key) -> {
            lookups.add(id);
            return CompletableFuture.completedFuture("Ada");
        };
        TopologyBuilder builder = new TopologyBuilder();
        // tag::enrich-cached[]
        builder.stream(Serdes.strings(), Serdes.strings(), "orders") // value: "<customer id>,<item>"
                .enrichAsync(
                        (orderId, order) -> order.split(",")[0], // what to look up: the customer id
                        (customerId, call) -> customers.apply(customerId, call.idempotencyKey()),
                        (order, customer) -> order + "," + (customer == null ? "unknown" : customer),
                        Async.named("customer-lookup").withCache(10_000, Duration.ofMinutes(1)))
                .to("orders-with-customers", Serdes.strings(), Serdes.strings());
        // end::enrich-cached[]
        try (TestDriver driver = TestDriver.builder(builder.build()).build()) {
            driver.pipe("orders", "o1", "c7,book", 1_000);
            driver.pipe("orders", "o2", "c7,pen", 2_000);
            assertThat(driver.output("orders-with-customers", Serdes.strings(), Serdes.strings()))
                    .extracting(TestRecord::value)
                    .containsExactly("c7,book,Ada", "c7,pen,Ada");
            assertThat(lookups).containsExactly("c7");
        }
    }
}
