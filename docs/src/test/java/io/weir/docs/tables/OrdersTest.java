package io.weir.docs.tables;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;

import io.weir.Topology;
import io.weir.TopologyBuilder;
import io.weir.common.KeyValue;
import io.weir.dsl.RecordStream;
import io.weir.dsl.RecordTable;
import io.weir.serde.Serdes;
import io.weir.testdriver.TestDriver;
import io.weir.testdriver.TestRecord;
import org.junit.jupiter.api.Test;

/** docs/tables-and-joins.md: orders enriched with their customer, and customers counted per region. */
class OrdersTest {

    record Customer(String name, String region, boolean active) {}

    record Order(String id, double amount) {}

    record EnrichedOrder(String id, double amount, String customer, String region) {}

    static Topology topology() {
        TopologyBuilder b = new TopologyBuilder();
        // tag::tables[]
        RecordTable<String, Customer> customers =
                b.table(Serdes.strings(), Serdes.json(Customer.class), "customers", "customers");
        RecordTable<String, Customer> active = customers.filter((id, c) -> c.active());
        active.groupBy((id, c) -> KeyValue.of(c.region(), id), Serdes.strings(), Serdes.strings())
                .count("active-customers-per-region")
                .toStream()
                .to("region-counts", Serdes.strings(), Serdes.longs());
        // end::tables[]
        // tag::join[]
        RecordStream<String, Order> orders = b.stream(Serdes.strings(), Serdes.json(Order.class), "orders");
        orders.join(active, (o, c) -> new EnrichedOrder(o.id(), o.amount(), c.name(), c.region()))
                .to("enriched-orders", Serdes.strings(), Serdes.json(EnrichedOrder.class));
        // end::join[]
        return b.build();
    }

    @Test
    void ordersOfActiveCustomersAreEnrichedAndRegionsCountTheirActiveCustomers() {
        try (TestDriver driver = TestDriver.builder(topology()).build()) {
            driver.pipe("customers", "c1", new Customer("Ada", "north", true), 1_000);
            driver.pipe("customers", "c2", new Customer("Bob", "north", true), 2_000);
            driver.pipe("orders", "c1", new Order("o1", 20.0), 3_000);
            driver.pipe("customers", "c1", new Customer("Ada", "south", true), 4_000);
            driver.pipe("customers", "c2", new Customer("Bob", "north", false), 5_000);
            driver.pipe("orders", "c2", new Order("o2", 5.0), 6_000); // Bob is inactive: no result
            driver.pipe("orders", "c1", new Order("o3", 7.5), 7_000);

            assertThat(driver.output("enriched-orders", Serdes.strings(), Serdes.json(EnrichedOrder.class)))
                    .extracting(TestRecord::value)
                    .containsExactly(
                            new EnrichedOrder("o1", 20.0, "Ada", "north"),
                            new EnrichedOrder("o3", 7.5, "Ada", "south"));
            assertThat(driver.output("region-counts", Serdes.strings(), Serdes.longs()))
                    .extracting(TestRecord::key, TestRecord::value)
                    .containsExactly(
                            tuple("north", 1L),
                            tuple("north", 2L),
                            tuple("north", 1L),
                            tuple("south", 1L),
                            tuple("north", 0L));
        }
    }
}
