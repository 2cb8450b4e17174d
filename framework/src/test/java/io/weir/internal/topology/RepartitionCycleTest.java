package io.weir.internal.topology;

import static org.assertj.core.api.Assertions.assertThat;

import io.weir.TopologyBuilder;
import io.weir.common.KeyValue;
import io.weir.dsl.RecordTable;
import io.weir.serde.Serdes;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * A foreign-key join's two repartition topics link the two tables' sub-topologies both ways:
 * {@link TopologyModel#repartitionCycle} names them (savepoints and bounded runs refuse such a
 * topology), and {@link TaskCounts} still sizes each topic to the side that reads it.
 */
class RepartitionCycleTest {

    private static TopologyModel foreignKeyJoin() {
        TopologyBuilder b = new TopologyBuilder();
        RecordTable<String, String> orders = b.table(Serdes.strings(), Serdes.strings(), "orders", "orders");
        RecordTable<String, String> customers = b.table(Serdes.strings(), Serdes.strings(), "customers", "customers");
        orders.join(customers, o -> o, (o, c) -> o + c, Serdes.strings(), "joined");
        return TopologyAccess.model(b.build(), "app");
    }

    @Test
    void aForeignKeyJoinLinksTwoSubtopologiesBothWays() {
        assertThat(foreignKeyJoin().repartitionCycle())
                .hasValueSatisfying(cycle -> assertThat(cycle)
                        .contains("app-joined-fk-subscription-repartition", "app-joined-fk-response-repartition"));
    }

    @Test
    void aReKeyedAggregationMakesNoCycle() {
        TopologyBuilder b = new TopologyBuilder();
        b.table(Serdes.strings(), Serdes.strings(), "users", "users")
                .groupBy((k, v) -> KeyValue.of(v, k), Serdes.strings(), Serdes.strings())
                .count("per-city");
        assertThat(TopologyAccess.model(b.build(), "app").repartitionCycle()).isEmpty();
    }

    @Test
    void eachForeignKeyJoinTopicHasThePartitionsOfTheTableThatReadsIt() {
        TaskCounts counts = TaskCounts.of(foreignKeyJoin(), Map.of("orders", 5, "customers", 2));

        assertThat(counts.partitions())
                .containsEntry("app-joined-fk-subscription-repartition", 2)
                .containsEntry("app-joined-fk-response-repartition", 5);
        assertThat(counts.tasks()).containsValues(5, 2);
    }

    /** Both tables re-keyed: neither side reads a topic of fixed size, the writers' task counts decide. */
    @Test
    void theTopicsOfAJoinOfTwoReKeyedTablesAreSizedToo() {
        TopologyBuilder b = new TopologyBuilder();
        RecordTable<String, String> orders = b.stream(Serdes.strings(), Serdes.strings(), "orders")
                .selectKey((k, v) -> v)
                .withSerdes(Serdes.strings(), Serdes.strings())
                .toTable("orders");
        RecordTable<String, String> customers = b.stream(Serdes.strings(), Serdes.strings(), "customers")
                .selectKey((k, v) -> v)
                .withSerdes(Serdes.strings(), Serdes.strings())
                .toTable("customers");
        orders.join(customers, o -> o, (o, c) -> o + c, Serdes.strings(), "joined");
        io.weir.Topology topology = b.build();
        TaskCounts counts = TaskCounts.of(TopologyAccess.model(topology, "app"), Map.of("orders", 5, "customers", 2));

        assertThat(counts.partitions())
                .containsEntry("app-orders-repartition", 5)
                .containsEntry("app-joined-fk-response-repartition", 5)
                .containsEntry("app-customers-repartition", 2)
                .containsEntry("app-joined-fk-subscription-repartition", 2);
        try (io.weir.testdriver.TestDriver driver = io.weir.testdriver.TestDriver.builder(topology)
                .partitions("orders", 5)
                .partitions("customers", 2)
                .build()) {
            driver.pipe("customers", "x", "c1", 1); // the customer c1 (keyed by its value)
            driver.pipe("orders", "y", "c1", 2); // the order c1, whose foreign key is c1
            assertThat(driver.<String, String>store("joined").get("c1")).isEqualTo("c1c1");
        }
    }
}
