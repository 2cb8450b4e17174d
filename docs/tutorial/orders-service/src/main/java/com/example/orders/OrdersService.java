// tag::service[]
package com.example.orders;

import io.weir.Topology;
import io.weir.TopologyBuilder;
import io.weir.WeirApp;
import io.weir.config.WeirConfig;
import io.weir.dsl.RecordStream;
import io.weir.dsl.RecordTable;
import io.weir.dsl.TimeWindows;
import io.weir.serde.Serdes;
import io.weir.time.Timestamps;
import java.time.Duration;

/**
 * The tutorial's service (docs/tutorial.md): orders joined with their customer, counted per
 * region in one-minute windows of the time the orders were placed.
 *
 * <pre>
 * customers (customer id → Customer)  → table "customers"
 * orders    (order id → Order)        → re-keyed by customer id → joined with the table
 *   → the customer's region → count per region and minute (store "orders-per-minute")
 *   → orders-per-minute (region and window → count), once per window when it closes
 * </pre>
 */
public final class OrdersService {

    /** The consumer group, and the prefix of the topics Weir creates. */
    public static final String APPLICATION_ID = "orders-service";
    public static final String CUSTOMERS = "customers";
    public static final String ORDERS = "orders";
    public static final String ORDERS_PER_MINUTE = "orders-per-minute";
    /** The store of the customers table; its changelog is named after it. */
    public static final String CUSTOMER_STORE = "customers";
    /** The window store of the counts, which HTTP queries read. */
    public static final String COUNT_STORE = "orders-per-minute";

    private OrdersService() {
    }

    /** Runs the service until SIGTERM or Ctrl-C; {@code --config FILE} adds a properties file. */
    public static void main(String[] args) throws InterruptedException {
        WeirApp.create(topology(), config().args(args).build()).runUntilShutdown();
    }

    public static Topology topology() {
        TopologyBuilder builder = new TopologyBuilder();
        RecordTable<String, Customer> customers =
                builder.table(Serdes.strings(), Serdes.json(Customer.class), CUSTOMERS, CUSTOMER_STORE);
        RecordStream<String, Order> orders = builder.stream(
                Serdes.strings(), Serdes.json(Order.class), Timestamps.eventTime(Order::placedAt), ORDERS);

        orders.filter((orderId, order) -> order != null && order.customerId() != null)
                // Keyed by customer now: Weir repartitions the orders before the join, with these serdes.
                .selectKey((orderId, order) -> order.customerId())
                .withSerdes(Serdes.strings(), Serdes.json(Order.class))
                .join(customers, (order, customer) -> customer.region())
                .groupBy((customerId, region) -> region, Serdes.strings(), Serdes.strings())
                .windowedBy(TimeWindows.of(Duration.ofMinutes(1))
                        .allowedLateness(Duration.ofSeconds(10))   // orders up to 10 s late still count
                        .retainFor(Duration.ofHours(1)))           // the last hour's minutes stay queryable
                .count(COUNT_STORE)
                .to(ORDERS_PER_MINUTE, Serdes.windowed(Serdes.strings()), Serdes.longs());
        return builder.build();
    }

    public static WeirConfig.Builder config() {
        return WeirConfig.builder()
                .applicationId(APPLICATION_ID)
                .bootstrapServers("localhost:9092");
    }
}
// end::service[]
