package io.weir.docs.dsl;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.weir.Topology;
import io.weir.TopologyBuilder;
import io.weir.dsl.Produced;
import io.weir.dsl.RecordStream;
import io.weir.dsl.RecordTable;
import io.weir.dsl.Repartitioned;
import io.weir.errors.TopologyException;
import io.weir.serde.Serdes;
import io.weir.testdriver.TestDriver;
import io.weir.testdriver.TestRecord;
import org.junit.jupiter.api.Test;

/** docs/topology-and-dsl.md: a partitioner on a sink, and repartition with a partition count. */
class PartitioningTest {

    record Order(String region, String customer, long cents) {}

    static Topology partitioned() {
        TopologyBuilder b = new TopologyBuilder();
        RecordStream<String, Order> orders = b.stream(Serdes.strings(), Serdes.json(Order.class), "orders");
        // tag::partitioner[]
        // EU orders in partition 0 of "orders-by-region", the rest by key as usual (null: the default)
        orders.to(
                "orders-by-region",
                Produced.partitionedBy(
                        (topic, key, order, partitions) -> order.region().equals("eu") ? 0 : null));
        // end::partitioner[]
        return b.build();
    }

    static Topology repartitioned() {
        TopologyBuilder b = new TopologyBuilder();
        RecordStream<String, Order> orders = b.stream(Serdes.strings(), Serdes.json(Order.class), "orders");
        // tag::repartition[]
        RecordTable<String, Long> perCustomer = orders.selectKey((id, order) -> order.customer())
                .repartition(Repartitioned.with(Serdes.strings(), Serdes.json(Order.class))
                        .withName("by-customer") // topic <application.id>-by-customer-repartition
                        .withPartitions(12)) // 12 partitions: 12 tasks count per customer
                .groupByKey()
                .count("orders-per-customer");
        // end::repartition[]
        perCustomer.toStream().to("counts", Serdes.strings(), Serdes.longs());
        return b.build();
    }

    @Test
    void euOrdersLandInPartitionZero() {
        try (TestDriver driver = TestDriver.builder(partitioned())
                .partitions("orders-by-region", 4)
                .build()) {
            for (int i = 0; i < 20; i++) {
                driver.pipe("orders", "o" + i, new Order("eu", "c" + i, 100), i);
            }
            assertThat(driver.output("orders-by-region", Serdes.strings(), Serdes.json(Order.class)))
                    .hasSize(20)
                    .extracting(TestRecord::partition)
                    .containsOnly(0);
        }
    }

    @Test
    void theRepartitionTopicHasTwelvePartitionsAndTheCountsAreExact() {
        try (TestDriver driver = TestDriver.builder(repartitioned())
                .config("application.id", "shop")
                .partitions("orders", 3)
                .build()) {
            assertThat(driver.tasks()).filteredOn(t -> t.subtopology() == 1).hasSize(12);
            for (int i = 0; i < 30; i++) {
                driver.pipe("orders", "o" + i, new Order("eu", "c" + (i % 3), 100), i);
            }
            driver.commit();
            assertThat(driver.allOutput("shop-by-customer-repartition", Serdes.strings(), Serdes.json(Order.class)))
                    .hasSize(30);
            assertThat(driver.allOutput("counts", Serdes.strings(), Serdes.longs()))
                    .filteredOn(r -> r.value() == 10L)
                    .extracting(TestRecord::key)
                    .containsExactlyInAnyOrder("c0", "c1", "c2");
        }
    }

    @Test
    void aFixedCountThatBreaksCoPartitioningIsRefused() {
        TopologyBuilder b = new TopologyBuilder();
        RecordTable<String, String> names = b.table(Serdes.strings(), Serdes.strings(), "customers", "names");
        b.stream(Serdes.strings(), Serdes.json(Order.class), "orders")
                .selectKey((id, order) -> order.customer())
                .repartition(Repartitioned.with(Serdes.strings(), Serdes.json(Order.class))
                        .withName("by-customer")
                        .withPartitions(12))
                .join(names, (order, name) -> name)
                .to("named", Serdes.strings(), Serdes.strings());
        assertThatThrownBy(() -> TestDriver.builder(b.build())
                        .config("application.id", "shop")
                        .partitions("customers", 6)
                        .build()
                        .close())
                .isInstanceOf(TopologyException.class)
                .hasMessageContaining("shop-by-customer-repartition has 12 partitions")
                .hasMessageContaining("customers has 6 partitions");
    }
}
