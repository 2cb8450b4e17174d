// tag::test[]
package com.example.orders;

import static com.example.orders.OrdersService.COUNT_STORE;
import static com.example.orders.OrdersService.CUSTOMERS;
import static com.example.orders.OrdersService.ORDERS;
import static com.example.orders.OrdersService.ORDERS_PER_MINUTE;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;

import io.weir.serde.Serdes;
import io.weir.state.Windowed;
import io.weir.testdriver.TestDriver;
import io.weir.testdriver.TestRecord;
import java.time.Duration;
import org.junit.jupiter.api.Test;

class OrdersServiceTest {

    private static final long T0 = 1_767_225_600_000L; // 2026-01-01T00:00:00Z, a minute's start
    private static final long MINUTE = 60_000;

    @Test
    void countsTheOrdersOfEachRegionPerMinuteOnceTheMinuteIsOver() {
        try (TestDriver driver = TestDriver.builder(OrdersService.topology()).build()) {
            driver.pipe(CUSTOMERS, "c-1", new Customer("Ada", "north"), T0);
            driver.pipe(CUSTOMERS, "c-2", new Customer("Bob", "south"), T0);
            order(driver, "o-1", "c-1", T0 + 1_000);
            order(driver, "o-2", "c-2", T0 + 2_000);
            order(driver, "o-3", "c-1", T0 + 30_000);
            order(driver, "o-4", "c-9", T0 + 40_000); // no such customer: the join drops it
            order(driver, "o-5", "c-1", T0 + MINUTE + 5_000);

            // The first minute is still open for late orders (10 s): nothing emitted yet.
            assertThat(driver.output(ORDERS_PER_MINUTE, Serdes.windowed(Serdes.strings()), Serdes.longs()))
                    .isEmpty();
            // But the store answers for it already, as an HTTP query would.
            assertThat(driver.<String, Long>windowStore(COUNT_STORE).fetch("north", T0)).isEqualTo(2L);

            // The customers topic has been quiet for idle.timeout.ms (30 s of wall-clock time):
            // from now on it no longer holds the watermark back, the orders alone move it.
            driver.advanceWallClock(Duration.ofSeconds(30));
            order(driver, "o-6", "c-2", T0 + MINUTE + 11_000); // the watermark passes 1 min + 10 s
            assertThat(driver.output(ORDERS_PER_MINUTE, Serdes.windowed(Serdes.strings()), Serdes.longs()))
                    .extracting(TestRecord::key, TestRecord::value)
                    .containsExactlyInAnyOrder(
                            tuple(new Windowed<>("north", T0, T0 + MINUTE), 2L),
                            tuple(new Windowed<>("south", T0, T0 + MINUTE), 1L));
            // Closed, and still in the store for an hour (retainFor), where queries read it.
            assertThat(driver.<String, Long>windowStore(COUNT_STORE).fetch("north", T0)).isEqualTo(2L);
        }
    }

    private static void order(TestDriver driver, String orderId, String customerId, long placedAt) {
        driver.pipe(ORDERS, orderId, new Order(customerId, 10.0, placedAt), placedAt);
    }
}
// end::test[]
