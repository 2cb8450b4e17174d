package io.weir.docs.tables;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;

import io.weir.Topology;
import io.weir.TopologyBuilder;
import io.weir.dsl.RecordTable;
import io.weir.serde.Serdes;
import io.weir.testdriver.TestDriver;
import io.weir.testdriver.TestRecord;
import org.junit.jupiter.api.Test;

/** docs/tables-and-joins.md: a table of open orders joined with customers by the order's customer id. */
class OrderLinesTest {

    record OpenOrder(String customerId, double amount) {}

    record Customer(String name, String region) {}

    static Topology topology() {
        TopologyBuilder b = new TopologyBuilder();
        // tag::fk-join[]
        RecordTable<String, OpenOrder> openOrders = // keyed by order id
                b.table(Serdes.strings(), Serdes.json(OpenOrder.class), "open-orders", "open-orders");
        RecordTable<String, Customer> customers = // keyed by customer id
                b.table(Serdes.strings(), Serdes.json(Customer.class), "customers", "customers");
        openOrders
                .join(
                        customers,
                        OpenOrder::customerId,
                        (o, c) -> c.name() + " (" + c.region() + "): " + o.amount(),
                        Serdes.strings(),
                        "open-orders-by-customer")
                .toStream()
                .to("open-orders-by-customer", Serdes.strings(), Serdes.strings());
        // end::fk-join[]
        return b.build();
    }

    @Test
    void eachOpenOrderFollowsItsCustomerAndMovesWithIt() {
        try (TestDriver driver = TestDriver.builder(topology())
                .partitions("open-orders", 4)
                .partitions("customers", 2)
                .build()) {
            driver.pipe("customers", "c1", new Customer("Ada", "north"), 1_000);
            driver.pipe("customers", "c2", new Customer("Bob", "south"), 2_000);
            driver.pipe("open-orders", "o1", new OpenOrder("c1", 20.0), 3_000);
            driver.pipe("open-orders", "o2", new OpenOrder("c1", 5.0), 4_000);
            driver.pipe("customers", "c1", new Customer("Ada", "east"), 5_000); // both orders follow
            driver.pipe("open-orders", "o2", new OpenOrder("c2", 5.0), 6_000); // o2 moves to Bob
            driver.pipe("open-orders", "o1", null, 7_000); // o1 closed

            assertThat(driver.output("open-orders-by-customer", Serdes.strings(), Serdes.strings()))
                    .extracting(TestRecord::key, TestRecord::value)
                    .containsExactlyInAnyOrder(
                            tuple("o1", "Ada (north): 20.0"), tuple("o2", "Ada (north): 5.0"),
                            tuple("o1", "Ada (east): 20.0"), tuple("o2", "Ada (east): 5.0"),
                            tuple("o2", "Bob (south): 5.0"), tuple("o1", null));
            assertThat(driver.<String, String>store("open-orders-by-customer").get("o2"))
                    .isEqualTo("Bob (south): 5.0");
        }
    }
}
