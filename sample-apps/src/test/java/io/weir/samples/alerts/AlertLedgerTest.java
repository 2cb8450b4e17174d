package io.weir.samples.alerts;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class AlertLedgerTest {

    private final AlertLedger ledger = new AlertLedger(90);
    private final Reading hot = new Reading("sensor-1", 95.0, 1_000);
    private final Reading cold = new Reading("sensor-1", 70.0, 2_000);

    @Test
    void passesWhenEveryExpectedAlertArrivesOnce() {
        ledger.fed(hot);
        ledger.fed(cold);
        assertThat(ledger.allReceived()).isFalse();

        assertThat(ledger.received(Alert.of(hot, 90))).isEqualTo(AlertLedger.Outcome.FIRST);

        assertThat(ledger.exactlyOnce()).isTrue();
        assertThat(ledger.summary())
                .isEqualTo("2 readings fed, 1 alerts expected, 1 received, 0 duplicates,"
                        + " 0 missing: exactly-once check PASSED");
    }

    @Test
    void failsOnADuplicate() {
        ledger.fed(hot);
        ledger.received(Alert.of(hot, 90));

        assertThat(ledger.received(Alert.of(hot, 90))).isEqualTo(AlertLedger.Outcome.DUPLICATE);

        assertThat(ledger.allReceived()).isTrue();
        assertThat(ledger.exactlyOnce()).isFalse();
        assertThat(ledger.summary()).contains("1 duplicates").endsWith("FAILED");
    }

    @Test
    void failsOnAMissingAlert() {
        ledger.fed(hot);
        assertThat(ledger.exactlyOnce()).isFalse();
        assertThat(ledger.summary()).contains("1 missing").endsWith("FAILED");
    }

    @Test
    void countsAlertsOfReadingsItDidNotFeedApart() {
        ledger.fed(hot);
        ledger.received(Alert.of(hot, 90));

        assertThat(ledger.received(new Alert("sensor-9", 99.0, 90, 5))).isEqualTo(AlertLedger.Outcome.FOREIGN);

        assertThat(ledger.exactlyOnce()).isTrue();
        assertThat(ledger.summary()).contains("1 from earlier runs ignored");
    }
}
