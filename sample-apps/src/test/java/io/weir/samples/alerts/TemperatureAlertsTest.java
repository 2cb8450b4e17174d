package io.weir.samples.alerts;

import static org.assertj.core.api.Assertions.assertThat;

import io.weir.Topology;
import io.weir.serde.Serdes;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

class TemperatureAlertsTest {

    @Test
    void alertsOnlyStrictlyAboveTheThreshold() {
        assertThat(TemperatureAlerts.isAlert(new Reading("s", 90.1, 1), 90)).isTrue();
        assertThat(TemperatureAlerts.isAlert(new Reading("s", 90.0, 1), 90)).isFalse();
        assertThat(TemperatureAlerts.isAlert(new Reading("s", 60.0, 1), 90)).isFalse();
        assertThat(TemperatureAlerts.isAlert(new Reading("s", 96.0, 1), 95.5)).isTrue();
    }

    @Test
    void ignoresTombstones() {
        assertThat(TemperatureAlerts.isAlert(null, 90)).isFalse();
    }

    @Test
    void alertCarriesTheReadingAndTheThreshold() {
        assertThat(Alert.of(new Reading("sensor-3", 94.2, 1_000L), 90))
                .isEqualTo(new Alert("sensor-3", 94.2, 90, 1_000L));
    }

    @Test
    void readingsAndAlertsAreJsonWithTheirFieldNames() {
        String json = new String(
                Serdes.json(Alert.class).serialize("t", new Alert("sensor-3", 94.2, 90, 7L)), StandardCharsets.UTF_8);
        assertThat(json)
                .isEqualTo("{\"sensor\":\"sensor-3\",\"temperature\":94.2,\"threshold\":90.0,\"readingTimestamp\":7}");
        Reading r = Serdes.json(Reading.class)
                .deserialize(
                        "t",
                        "{\"sensor\":\"sensor-1\",\"temperature\":91.5,\"timestamp\":3}"
                                .getBytes(StandardCharsets.UTF_8));
        assertThat(r).isEqualTo(new Reading("sensor-1", 91.5, 3));
    }

    @Test
    void topologyReadsTheInputAndWritesTheOutput() {
        Topology t = TemperatureAlerts.topology("readings", "alerts", 90);
        assertThat(t.sourceTopics()).containsExactly("readings");
        assertThat(t.sinkTopics()).containsExactly("alerts");
    }
}
