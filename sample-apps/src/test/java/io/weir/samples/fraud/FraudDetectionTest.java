package io.weir.samples.fraud;

import static org.assertj.core.api.Assertions.assertThat;

import io.weir.serde.Serdes;
import io.weir.testdriver.TestDriver;
import io.weir.testdriver.TestRecord;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/** Fraud detection on the test driver: the alerts are exactly the rules' on the payments, with their holders. */
class FraudDetectionTest {

    @Test
    void flagsExactlyWhatTheRulesGiveAndEveryFraudPutIn() {
        SampleTransactions data = new SampleTransactions(7, 400, 12, 1_700_000_000_000L);
        try (TestDriver driver = TestDriver.builder(FraudDetection.topology("payments", "holders", "alerts"))
                .partitions("payments", 3)
                .partitions("holders", 3)
                .build()) {
            data.holders().forEach((card, h) -> driver.pipe("holders", card, h, 0));
            data.transactions().forEach(t -> driver.pipe("payments", t.card(), t, t.time()));

            Map<String, FraudAlert> alerts = new TreeMap<>();
            for (TestRecord<String, FraudAlert> r :
                    driver.output("alerts", Serdes.strings(), Serdes.json(FraudAlert.class))) {
                assertThat(alerts.put(r.value().transaction(), r.value()))
                        .as("alerted twice")
                        .isNull();
            }
            assertThat(alerts).isEqualTo(data.expected());
            assertThat(alerts.keySet()).containsAll(data.injected());
            assertThat(data.injected()).isNotEmpty();
            assertThat(alerts.values())
                    .anyMatch(a -> a.reason().equals("amount-spike"))
                    .anyMatch(a -> a.reason().equals("impossible-travel"))
                    .anyMatch(a -> a.holder() == null)
                    .anyMatch(a -> a.holder() != null);
        }
    }

    @Test
    void theRulesFlagAPlaneTooFastAndASpikeAfterEnoughHistoryButNotAWalkOrABigFirstPayment() {
        CardHistory lisbon = new CardHistory(38.72, -9.14, 0, 5, 50);
        Transaction osloTenMinutesLater = new Transaction("t", "c", 40, 59.91, 10.75, 600_000);
        Transaction walk = new Transaction("t", "c", 40, 38.73, -9.14, 600_000);
        Transaction spike = new Transaction("t", "c", 251, 38.72, -9.14, 600_000);

        assertThat(FraudRules.judge(lisbon, osloTenMinutesLater))
                .get()
                .extracting(FraudRules.Verdict::reason)
                .isEqualTo("impossible-travel");
        assertThat(FraudRules.judge(lisbon, walk)).isEmpty();
        assertThat(FraudRules.judge(lisbon, spike))
                .get()
                .extracting(FraudRules.Verdict::reason)
                .isEqualTo("amount-spike");
        assertThat(FraudRules.judge(new CardHistory(38.72, -9.14, 0, 4, 50), spike))
                .isEmpty();
        assertThat(FraudRules.judge(null, spike)).isEmpty();
        assertThat(FraudRules.distanceKm(38.72, -9.14, 59.91, 10.75)).isBetween(2_700.0, 2_800.0);
    }

    @Test
    void aPaymentWithoutAValueGoesToTheDeadLetters() {
        try (TestDriver driver = TestDriver.builder(FraudDetection.topology("payments", "holders", "alerts"))
                .build()) {
            driver.pipe("payments", "card-1", null, 1);
            assertThat(driver.deadLetters()).hasSize(1);
        }
    }
}
