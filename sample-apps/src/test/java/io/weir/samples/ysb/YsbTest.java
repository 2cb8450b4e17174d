package io.weir.samples.ysb;

import static org.assertj.core.api.Assertions.assertThat;

import io.weir.dsl.Emit;
import io.weir.serde.Serdes;
import io.weir.testdriver.TestDriver;
import io.weir.testdriver.TestRecord;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The YSB job on the test driver: every window's final count is the number of views of the campaign's ads. */
class YsbTest {

    @Test
    void countsTheViewsOfEachCampaignPerTenSecondWindowAndNothingElse() {
        YsbData data = new YsbData(5, 1);
        YsbChecker checker = new YsbChecker(data.campaignOfAd(), Ysb.WINDOW.toMillis());
        try (TestDriver driver = TestDriver.builder(Ysb.topology("events", "campaigns", "counts", Emit.atWatermark()))
                .partitions("events", 3)
                .build()) {
            data.campaignOfAd().forEach((ad, campaign) -> driver.pipe("campaigns", ad, campaign, 0));
            long t0 = 1_700_000_000_000L;
            for (int i = 0; i < 3_000; i++) {
                AdEvent e = data.next(t0 + i * 20L);
                checker.sent(e);
                driver.pipe("events", i % 3, e.userId(), e, e.eventTime());
            }
            for (int p = 0; p < 3; p++) {
                driver.pipe("events", p, "tick", YsbData.tick(t0 + 3_000 * 20L + Ysb.WINDOW.toMillis()), 0);
            }
            Map<String, Long> finals = new HashMap<>();
            for (TestRecord<String, Long> r : driver.output("counts", Serdes.strings(), Serdes.longs())) {
                checker.received(r.key(), r.value(), "final", 0);
                assertThat(finals.put(r.key(), r.value()))
                        .as("%s twice", r.key())
                        .isNull();
            }
            assertThat(checker.problems()).isEmpty();
            assertThat(checker.passed()).isTrue();
            assertThat(checker.windows()).isEqualTo(5 * 6); // 60 s of events: six windows per campaign
        }
    }

    @Test
    void theCheckerCatchesAWrongCountATwiceFinalAndAMissingWindow() {
        YsbData data = new YsbData(1, 2);
        YsbChecker checker = new YsbChecker(data.campaignOfAd(), 10_000);
        String campaign = data.campaignOfAd().values().iterator().next();
        String ad = data.campaignOfAd().keySet().iterator().next();
        checker.sent(new AdEvent("u", "p", ad, "banner", "view", 5_000, "ip"));
        checker.sent(new AdEvent("u", "p", ad, "banner", "view", 15_000, "ip"));
        checker.sent(new AdEvent("u", "p", ad, "banner", "click", 15_000, "ip"));
        checker.received(campaign + "@0", 1L, "early", 100);
        checker.received(campaign + "@0", 2L, "final", 10_250);

        assertThat(checker.passed()).isFalse();
        assertThat(checker.problems())
                .containsExactly(
                        campaign + "@0: final count 2, expected 1", campaign + "@10000: no final result (expected 1)");
        checker.received(campaign + "@0", 1L, "final", 10_300);
        assertThat(checker.problems()).contains(campaign + "@0: final result twice (2, then 1)");
        assertThat(checker.latencyQuantile(1.0)).isEqualTo(250); // a second final is not timed
        assertThat(checker.updatesPerWindow()).isEqualTo(0.5);
    }
}
