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
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/** Global tables through the whole runtime (the test driver): joins by a selected key, updates, bad rows. */
class GlobalTablesTest {

    /** Ad events (ad id in the value) joined with the campaign of their ad, any partitioning. */
    private static Topology adsToCampaigns() {
        TopologyBuilder b = new TopologyBuilder();
        GlobalTable<String, String> campaigns =
                b.globalTable(Serdes.strings(), Serdes.strings(), "ad-campaigns", "ad-campaigns");
        RecordStream<String, String> events = b.stream(Serdes.strings(), Serdes.strings(), "ad-events");
        events.join(campaigns, (user, ad) -> ad, (ad, campaign) -> ad + "@" + campaign)
                .to("events-by-campaign", Serdes.strings(), Serdes.strings());
        events.leftJoin(campaigns, (user, ad) -> ad, (ad, campaign) -> ad + "@" + campaign)
                .to("events-left", Serdes.strings(), Serdes.strings());
        return b.build();
    }

    @Test
    void aStreamOfAnyPartitioningJoinsTheRowOfTheKeyItSelects() {
        try (TestDriver driver = TestDriver.builder(adsToCampaigns())
                .partitions("ad-events", 3)
                .partitions("ad-campaigns", 2)
                .build()) {
            driver.pipe("ad-campaigns", 0, "ad1", "c1", 1);
            driver.pipe("ad-campaigns", 1, "ad2", "c2", 1);
            driver.pipe("ad-events", 2, "u1", "ad1", 5);
            driver.pipe("ad-events", 0, "u2", "ad2", 6);
            driver.pipe("ad-events", 1, "u3", "ad9", 7); // no such ad
            driver.pipe("ad-campaigns", 0, "ad1", "c7", 8); // moved to another campaign
            driver.pipe("ad-events", 1, "u1", "ad1", 9);
            driver.pipe("ad-campaigns", 1, "ad2", null, 10); // deleted
            driver.pipe("ad-events", 1, "u2", "ad2", 11);

            assertThat(driver.output("events-by-campaign", Serdes.strings(), Serdes.strings()))
                    .extracting(TestRecord::key, TestRecord::value, TestRecord::timestamp)
                    .containsExactly(tuple("u1", "ad1@c1", 5L), tuple("u2", "ad2@c2", 6L), tuple("u1", "ad1@c7", 9L));
            assertThat(driver.output("events-left", Serdes.strings(), Serdes.strings()))
                    .extracting(TestRecord::value)
                    .containsExactly("ad1@c1", "ad2@c2", "ad9@null", "ad1@c7", "ad2@null");
            assertThat(driver.<String, String>store("ad-campaigns").get("ad1")).isEqualTo("c7");
            assertThat(driver.<String, String>store("ad-campaigns").get("ad2")).isNull();
        }
    }

    @Test
    void aRowWithoutAKeyOrThatTheSerdesCannotReadGoesToTheDeadLetters() {
        TopologyBuilder b = new TopologyBuilder();
        GlobalTable<String, Long> limits = b.globalTable(Serdes.strings(), Serdes.longs(), "limits", "limits");
        b.stream(Serdes.strings(), Serdes.strings(), "requests")
                .join(limits, (k, v) -> k, (v, limit) -> v + "<=" + limit)
                .to("checked", Serdes.strings(), Serdes.strings());
        try (TestDriver driver = TestDriver.builder(b.build()).build()) {
            driver.pipe("limits", null, 5L, 1);
            driver.input("limits", Serdes.strings(), Serdes.bytes())
                    .pipe("k", "abc".getBytes(StandardCharsets.UTF_8), 2);
            driver.pipe("limits", "k", 7L, 3);
            driver.pipe("requests", "k", "r1", 4);

            assertThat(driver.deadLetters()).hasSize(2);
            assertThat(driver.output("checked", Serdes.strings(), Serdes.strings()))
                    .extracting(TestRecord::value)
                    .containsExactly("r1<=7");
        }
    }

    @Test
    void aGlobalTablesTopicCannotAlsoBeReadAsAStream() {
        TopologyBuilder b = new TopologyBuilder();
        b.globalTable(Serdes.strings(), Serdes.strings(), "ref", "ref");
        assertThatThrownBy(() -> b.stream(Serdes.strings(), Serdes.strings(), "ref"))
                .isInstanceOf(TopologyException.class)
                .hasMessageContaining("global table 'ref'");
    }

    @Test
    void processorsUsingAGlobalTableStayInTheirOwnSubTopologies() {
        TopologyBuilder b = new TopologyBuilder();
        GlobalTable<String, String> ref = b.globalTable(Serdes.strings(), Serdes.strings(), "ref", "ref");
        b.stream(Serdes.strings(), Serdes.strings(), "a")
                .join(ref, (k, v) -> v, (v, r) -> r)
                .to("out-a", Serdes.strings(), Serdes.strings());
        b.stream(Serdes.strings(), Serdes.strings(), "b")
                .join(ref, (k, v) -> v, (v, r) -> r)
                .to("out-b", Serdes.strings(), Serdes.strings());
        Topology topology = b.build();

        assertThat(topology.describe()).contains("Sub-topology 0", "Sub-topology 1", "Global table ref (topic: ref)");
    }
}
