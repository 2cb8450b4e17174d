package io.weir.dsl;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.tuple;

import io.weir.Topology;
import io.weir.TopologyBuilder;
import io.weir.errors.TopologyException;
import io.weir.serde.Serdes;
import io.weir.testdriver.TestDriver;
import io.weir.testdriver.TestRecord;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Foreign-key table-table joins through the whole runtime (the test driver): orders, keyed by
 * order id with the customer id in the value ({@code "c1:30"}), joined with customers keyed by
 * customer id, on topics of different partition counts.
 */
class FkJoinTest {

    private static final ValueJoiner<String, String, String> ORDER_OF = (order, name) -> order + "/" + name;

    private static String customer(String order) {
        return order.isEmpty() ? null : order.split(":")[0];
    }

    private static Topology topology() {
        TopologyBuilder b = new TopologyBuilder();
        RecordTable<String, String> orders = b.table(Serdes.strings(), Serdes.strings(), "orders", "orders");
        RecordTable<String, String> customers = b.table(Serdes.strings(), Serdes.strings(), "customers", "customers");
        orders.join(customers, FkJoinTest::customer, ORDER_OF, Serdes.strings(), "inner")
                .toStream()
                .to("inner-out", Serdes.strings(), Serdes.strings());
        orders.leftJoin(customers, FkJoinTest::customer, ORDER_OF, Serdes.strings(), "left")
                .toStream()
                .to("left-out", Serdes.strings(), Serdes.strings());
        return b.build();
    }

    private static TestDriver driver() {
        return TestDriver.builder(topology())
                .partitions("orders", 3)
                .partitions("customers", 2)
                .build();
    }

    private static List<TestRecord<String, String>> out(TestDriver driver, String topic) {
        return driver.output(topic, Serdes.strings(), Serdes.strings());
    }

    @Test
    void aRowThatMovesToAnotherForeignKeyJoinsTheNewRowOnly() {
        try (TestDriver driver = driver()) {
            driver.pipe("customers", "c1", "Ada", 1);
            driver.pipe("customers", "c2", "Bob", 2);
            driver.pipe("orders", "o1", "c1:30", 3);
            driver.pipe("orders", "o1", "c2:30", 4);
            driver.pipe("customers", "c1", "Ada L.", 5); // o1 no longer refers to c1: nothing

            assertThat(out(driver, "inner-out"))
                    .extracting(TestRecord::key, TestRecord::value)
                    .containsExactly(tuple("o1", "c1:30/Ada"), tuple("o1", "c2:30/Bob"));
            assertThat(driver.<String, String>store("inner").get("o1")).isEqualTo("c2:30/Bob");
            assertThat(driver.<String, String>store("left").get("o1")).isEqualTo("c2:30/Bob");
        }
    }

    @Test
    void aMoveToAForeignKeyWithoutARowDeletesTheInnerRowAndLeavesTheLeftRowUnmatched() {
        try (TestDriver driver = driver()) {
            driver.pipe("customers", "c1", "Ada", 1);
            driver.pipe("orders", "o1", "c1:30", 2);
            driver.pipe("orders", "o1", "c9:30", 3);

            assertThat(out(driver, "inner-out")).extracting(TestRecord::value).containsExactly("c1:30/Ada", null);
            assertThat(out(driver, "left-out"))
                    .extracting(TestRecord::value)
                    .containsExactly("c1:30/Ada", "c9:30/null");
        }
    }

    @Test
    void aDeletedLeftRowDeletesItsResultAndATombstoneGoesDownstreamOnlyIfThereWasOne() {
        try (TestDriver driver = driver()) {
            driver.pipe("customers", "c1", "Ada", 1);
            driver.pipe("orders", "o1", "c1:30", 2);
            driver.pipe("orders", "o2", "c9:10", 3); // no customer: no inner row
            driver.pipe("orders", "o1", null, 4);
            driver.pipe("orders", "o2", null, 5);
            driver.pipe("customers", "c1", "Ada L.", 6); // o1's subscription is gone

            assertThat(out(driver, "inner-out"))
                    .extracting(TestRecord::key, TestRecord::value, TestRecord::timestamp)
                    .containsExactly(tuple("o1", "c1:30/Ada", 2L), tuple("o1", null, 4L));
            assertThat(out(driver, "left-out"))
                    .extracting(TestRecord::key, TestRecord::value)
                    .containsExactly(
                            tuple("o1", "c1:30/Ada"), tuple("o2", "c9:10/null"), tuple("o1", null), tuple("o2", null));
            assertThat(driver.<String, String>store("left").get("o1")).isNull();
            assertThat(driver.<Object, byte[]>store("inner-fk-subscriptions").approximateNumEntries())
                    .isZero();
        }
    }

    @Test
    void aDeletedRightRowDeletesTheInnerRowsAndUnmatchesTheLeftRows() {
        try (TestDriver driver = driver()) {
            driver.pipe("customers", "c1", "Ada", 1);
            driver.pipe("orders", "o1", "c1:30", 2);
            driver.pipe("customers", "c1", null, 3);
            driver.pipe("customers", "c1", "Ada", 4);

            assertThat(out(driver, "inner-out"))
                    .extracting(TestRecord::value, TestRecord::timestamp)
                    .containsExactly(tuple("c1:30/Ada", 2L), tuple(null, 3L), tuple("c1:30/Ada", 4L));
            assertThat(out(driver, "left-out"))
                    .extracting(TestRecord::value)
                    .containsExactly("c1:30/Ada", "c1:30/null", "c1:30/Ada");
        }
    }

    @Test
    void aChangedRightRowUpdatesEveryLeftRowReferringToIt() {
        try (TestDriver driver = driver()) {
            driver.pipe("customers", "c1", "Ada", 1);
            driver.pipe("customers", "c2", "Bob", 2);
            for (int i = 0; i < 6; i++) {
                driver.pipe("orders", "o" + i, (i % 2 == 0 ? "c1:" : "c2:") + i, 10 + i);
            }
            out(driver, "inner-out");
            driver.pipe("customers", "c1", "Ada L.", 20);

            assertThat(out(driver, "inner-out"))
                    .extracting(TestRecord::key, TestRecord::value)
                    .containsExactlyInAnyOrder(
                            tuple("o0", "c1:0/Ada L."), tuple("o2", "c1:2/Ada L."), tuple("o4", "c1:4/Ada L."));
            assertThat(driver.<String, String>store("inner").get("o3")).isEqualTo("c2:3/Bob");
        }
    }

    @Test
    void aLeftRowChangedUnderTheSameForeignKeyIsJoinedWithItsNewValue() {
        try (TestDriver driver = driver()) {
            driver.pipe("customers", "c1", "Ada", 1);
            driver.pipe("orders", "o1", "c1:30", 2);
            driver.pipe("orders", "o1", "c1:40", 3);

            assertThat(out(driver, "inner-out"))
                    .extracting(TestRecord::value)
                    .containsExactly("c1:30/Ada", "c1:40/Ada");
        }
    }

    /** Kafka Streams writes a tombstone here (as for a deleted row that had no result); Weir writes nothing. */
    @Test
    void aNewLeftRowWithoutARightRowWritesNoTombstone() {
        try (TestDriver driver = driver()) {
            driver.pipe("orders", "o1", "c1:30", 1);
            driver.pipe("orders", "o1", null, 2);

            assertThat(out(driver, "inner-out")).isEmpty();
            assertThat(out(driver, "left-out")).extracting(TestRecord::value).containsExactly("c1:30/null", null);
        }
    }

    @Test
    void aNullForeignKeyJoinsNoRow() {
        try (TestDriver driver = driver()) {
            driver.pipe("customers", "c1", "Ada", 1);
            driver.pipe("orders", "o1", "c1:30", 2);
            driver.pipe("orders", "o1", "", 3); // no customer

            assertThat(out(driver, "inner-out")).extracting(TestRecord::value).containsExactly("c1:30/Ada", null);
            assertThat(out(driver, "left-out")).extracting(TestRecord::value).containsExactly("c1:30/Ada", "/null");
        }
    }

    @Test
    void theTablesNeedNotBeCoPartitionedAndTheInternalTopicsAndStoresAreNamedAfterTheStore() {
        Topology topology = topology();
        assertThat(topology.describe()).contains("inner-fk-subscription-repartition", "inner-fk-response-repartition");
        try (TestDriver driver = TestDriver.builder(topology)
                .partitions("orders", 5)
                .partitions("customers", 2)
                .build()) {
            for (int i = 0; i < 10; i++) {
                driver.pipe("customers", "c" + i, "name" + i, i);
                driver.pipe("orders", "o" + i, "c" + (9 - i) + ":1", i);
            }
            for (int i = 0; i < 10; i++) {
                assertThat(driver.<String, String>store("inner").get("o" + i))
                        .isEqualTo("c" + (9 - i) + ":1/name" + (9 - i));
            }
        }
    }

    @Test
    void aForeignKeyCanBeTakenFromTheKeyAndTheValue() {
        TopologyBuilder b = new TopologyBuilder();
        RecordTable<String, String> orders = b.table(Serdes.strings(), Serdes.strings(), "orders", "orders");
        RecordTable<String, String> regions = b.table(Serdes.strings(), Serdes.strings(), "regions", "regions");
        orders.join(regions, (id, order) -> id.substring(0, 2), ORDER_OF, Serdes.strings(), "by-prefix");
        try (TestDriver driver = TestDriver.builder(b.build()).build()) {
            driver.pipe("regions", "eu", "Europe", 1);
            driver.pipe("orders", "eu-1", "x", 2);

            assertThat(driver.<String, String>store("by-prefix").get("eu-1")).isEqualTo("x/Europe");
        }
    }

    @Test
    void aTableJoinsItselfAndAFilteredTableHidesTheRowsItDrops() {
        TopologyBuilder b = new TopologyBuilder();
        // employee -> "manager:name"
        RecordTable<String, String> staff = b.table(Serdes.strings(), Serdes.strings(), "staff", "staff");
        staff.leftJoin(
                staff.filter((id, e) -> !e.endsWith("(gone)")),
                e -> e.split(":")[0],
                (e, manager) -> e.split(":")[1] + " reports to " + (manager == null ? "nobody" : manager.split(":")[1]),
                Serdes.strings(),
                "reports");
        try (TestDriver driver =
                TestDriver.builder(b.build()).partitions("staff", 3).build()) {
            driver.pipe("staff", "e1", "e0:Ada", 1);
            driver.pipe("staff", "e2", "e1:Bob", 2);
            driver.pipe("staff", "e1", "e0:Ada L.", 3);
            driver.pipe("staff", "e3", "e1:Cy", 4);
            driver.pipe("staff", "e1", "e0:Ada (gone)", 5);

            assertThat(driver.<String, String>store("reports").get("e2")).isEqualTo("Bob reports to nobody");
            assertThat(driver.<String, String>store("reports").get("e3")).isEqualTo("Cy reports to nobody");
            assertThat(driver.<String, String>store("reports").get("e1")).isEqualTo("Ada (gone) reports to nobody");
            driver.pipe("staff", "e1", "e0:Ada", 6);
            assertThat(driver.<String, String>store("reports").get("e2")).isEqualTo("Bob reports to Ada");
        }
    }

    /**
     * The join's two topics go both ways between the tables' tasks: if they carried event time, each
     * side's watermark would wait for the other's and a window beside the join would never close.
     */
    @Test
    void aWindowBesideTheJoinClosesItsWindowsAsIfTheJoinWereNotThere() {
        TopologyBuilder b = new TopologyBuilder();
        RecordTable<String, String> orders = b.table(Serdes.strings(), Serdes.strings(), "orders", "orders");
        RecordTable<String, String> customers = b.table(Serdes.strings(), Serdes.strings(), "customers", "customers");
        orders.join(customers, FkJoinTest::customer, ORDER_OF, Serdes.strings(), "inner");
        orders.toStream()
                .groupByKey()
                .windowedBy(TimeWindows.of(java.time.Duration.ofSeconds(1)))
                .emit(Emit.onWindowClose())
                .count("order-updates")
                .map((w, n) -> io.weir.common.KeyValue.of(w.key() + "@" + w.start(), n))
                .to("order-updates", Serdes.strings(), Serdes.longs());
        try (TestDriver driver = TestDriver.builder(b.build()).startWallClock(0).build()) {
            driver.pipe("customers", "c1", "Ada", 0);
            driver.pipe("orders", "o1", "c1:30", 100);
            driver.pipe("orders", "o1", "c1:40", 5_000);

            assertThat(driver.<String, String>store("inner").get("o1")).isEqualTo("c1:40/Ada");
            assertThat(driver.output("order-updates", Serdes.strings(), Serdes.longs()))
                    .extracting(TestRecord::key, TestRecord::value)
                    .containsExactly(tuple("o1@0", 1L));
        }
    }

    @Test
    void misuseFailsWhenTheTopologyIsBuilt() {
        TopologyBuilder b = new TopologyBuilder();
        RecordTable<String, String> orders = b.table(Serdes.strings(), Serdes.strings(), "orders", "orders");
        RecordTable<String, String> customers = b.table(Serdes.strings(), Serdes.strings(), "customers", "customers");
        RecordTable<String, String> elsewhere =
                new TopologyBuilder().table(Serdes.strings(), Serdes.strings(), "customers", "customers");
        assertThatThrownBy(() -> orders.join(elsewhere, FkJoinTest::customer, ORDER_OF, Serdes.strings(), "j"))
                .isInstanceOf(TopologyException.class)
                .hasMessageContaining("another topology builder");
        assertThatThrownBy(() -> orders.join(
                        customers, (java.util.function.Function<String, String>) null, ORDER_OF, Serdes.strings(), "j"))
                .isInstanceOf(NullPointerException.class)
                .hasMessageContaining("foreignKey");
        assertThatThrownBy(() -> orders.leftJoin(customers, FkJoinTest::customer, ORDER_OF, Serdes.strings(), null))
                .isInstanceOf(NullPointerException.class)
                .hasMessageContaining("storeName");
        assertThatThrownBy(() -> orders.join(
                        customers.mapValues(String::length),
                        FkJoinTest::customer,
                        (o, n) -> o + n,
                        Serdes.strings(),
                        "j"))
                .isInstanceOf(TopologyException.class)
                .hasMessageContaining("the other table's value serde");
    }
}
