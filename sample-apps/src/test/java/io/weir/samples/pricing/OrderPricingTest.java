package io.weir.samples.pricing;

import static org.assertj.core.api.Assertions.assertThat;

import io.weir.Topology;
import io.weir.dsl.Async;
import io.weir.serde.Serdes;
import io.weir.testdriver.TestDriver;
import io.weir.testdriver.TestRecord;
import io.weir.testkit.LookupService;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * Order pricing on the test driver against a real pricing service on 127.0.0.1 (the testkit's
 * {@link LookupService}, 0 to 4 ms per call): each pipe returns once the order's calls completed.
 */
class OrderPricingTest {

    private static final Async STEP = OrderPricing.step(50, Duration.ofSeconds(5), 4);

    @Test
    void totalsEveryOrderAtTheServicesPricesOnceWhileA503IsRetriedWithTheSameIdempotencyKey() {
        List<Order> orders = SampleOrders.generate(7, 80, 8, 30);
        try (LookupService service = LookupService.start(Duration.ofMillis(2), Duration.ofMillis(2), 0.2);
                TestDriver driver = TestDriver.builder(topology(service, STEP))
                        .partitions("orders", 3)
                        .build()) {
            orders.forEach(o -> driver.pipe("orders", o.id(), o, 0));

            Set<String> dead = deadLetteredIds(driver);
            Map<String, Spend> totals = lastTotals(driver);
            assertThat(totals).isEqualTo(SampleOrders.expected(orders, dead));
            assertThat(totals.values().stream().mapToLong(Spend::orders).sum() + dead.size())
                    .isEqualTo(orders.size());
            assertThat(service.failures()).as("20%% of calls answered 503").isPositive();
            assertThat(service.calls())
                    .as("every order called, the 503s called again")
                    .isGreaterThanOrEqualTo(orders.size() + service.failures() - dead.size());
            assertThat(service.repeats())
                    .as("every call after an order's first carries the key the service saw for it")
                    .isEqualTo(service.calls() - orders.size());
            assertThat(driver.inFlight()).isZero();
        }
    }

    @Test
    void ordersTheServiceCannotPriceGoToTheDeadLettersWithTheReasonAndTheStreamGoesOn() {
        try (LookupService service = LookupService.start(Duration.ZERO, Duration.ZERO, 0);
                TestDriver driver = TestDriver.builder(
                                topology(service, OrderPricing.step(50, Duration.ofSeconds(5), 2)))
                        .build()) {
            service.down(true);
            driver.pipe("orders", "o-1", new Order("o-1", "ann", "pen", 2), 0);
            driver.pipe("orders", "o-2", new Order("o-2", "bob", "ink", 1), 1);
            service.down(false);
            driver.pipe("orders", "o-3", new Order("o-3", "ann", "pen", 3), 2);
            driver.pipe("orders", "o-4", null, 3);

            List<TestRecord<byte[], byte[]>> dead = driver.deadLetters();
            assertThat(dead)
                    .extracting(r -> new String(r.key(), StandardCharsets.UTF_8))
                    .containsExactly("o-1", "o-2", "o-4");
            assertThat(dead.get(0).headers().lastString("weir.error.message"))
                    .contains("pricing service unavailable (503) for pen");
            assertThat(service.repeats())
                    .as("o-1 and o-2 tried twice, each time with its key")
                    .isEqualTo(2);
            long pen = Long.parseLong(LookupService.answer("pen"));
            assertThat(lastTotals(driver)).isEqualTo(Map.of("ann", new Spend(1, 3 * pen)));
        }
    }

    private static Topology topology(LookupService service, Async step) {
        return OrderPricing.topology("orders", "totals", service.uri(), step);
    }

    /** Each customer's last total, after checking that every emitted total follows the one before it. */
    private static Map<String, Spend> lastTotals(TestDriver driver) {
        Map<String, Spend> last = new TreeMap<>();
        for (TestRecord<String, Spend> r : driver.output("totals", Serdes.strings(), Serdes.json(Spend.class))) {
            Spend before = last.put(r.key(), r.value());
            assertThat(before == null ? 0 : before.orders())
                    .as("totals of %s grow", r.key())
                    .isLessThan(r.value().orders());
        }
        return last;
    }

    private static Set<String> deadLetteredIds(TestDriver driver) {
        List<String> ids = driver.deadLetters().stream()
                .map(r -> new String(r.key(), StandardCharsets.UTF_8))
                .toList();
        Set<String> distinct = ids.stream().collect(Collectors.toSet());
        assertThat(distinct).as("no order dead-lettered twice").hasSameSizeAs(ids);
        return distinct;
    }
}
