package io.weir.docs.tables;

import static org.assertj.core.api.Assertions.assertThat;

import io.weir.Topology;
import io.weir.TopologyBuilder;
import io.weir.dsl.GlobalTable;
import io.weir.serde.Serdes;
import io.weir.testdriver.TestDriver;
import io.weir.testdriver.TestRecord;
import org.junit.jupiter.api.Test;

/** docs/tables-and-joins.md: ad events joined with the campaign of their ad, from a global table. */
class CampaignsTest {

    record AdEvent(String user, String ad, String type) {}

    static Topology topology() {
        TopologyBuilder b = new TopologyBuilder();
        // tag::global[]
        GlobalTable<String, String> campaignOfAd =
                b.globalTable(Serdes.strings(), Serdes.strings(), "ad-campaigns", "ad-campaigns");
        b.stream(Serdes.strings(), Serdes.json(AdEvent.class), "ad-events") // keyed by user
                .join(campaignOfAd, (user, e) -> e.ad(), (e, campaign) -> campaign)
                .to("campaign-events", Serdes.strings(), Serdes.strings());
        // end::global[]
        return b.build();
    }

    @Test
    void eachEventFindsTheCampaignOfItsAdWhateverItsPartition() {
        try (TestDriver driver =
                TestDriver.builder(topology()).partitions("ad-events", 4).build()) {
            driver.pipe("ad-campaigns", "ad-1", "summer-sale", 1);
            driver.pipe("ad-events", "user-9", new AdEvent("user-9", "ad-1", "view"), 2);
            driver.pipe("ad-events", "user-3", new AdEvent("user-3", "ad-2", "view"), 3); // no campaign: no result

            assertThat(driver.output("campaign-events", Serdes.strings(), Serdes.strings()))
                    .extracting(TestRecord::value)
                    .containsExactly("summer-sale");
        }
    }
}
