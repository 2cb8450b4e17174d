package io.weir.samples.alerts;

import static org.assertj.core.api.Assertions.assertThat;

import io.weir.samples.common.RecordGenerator;
import io.weir.serde.Serdes;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class TemperatureAlertsServiceTest {

    @Test
    void feedsEverySensorInTurnStampedWhenSent() {
        RecordGenerator readings = TemperatureAlertsService.readings(3);
        List<String> sensors = new ArrayList<>();
        for (int i = 0; i < TemperatureAlertsService.SENSORS + 1; i++) {
            var record = readings.next("readings", 5000L + i);
            Reading r = Serdes.json(Reading.class).deserialize("readings", record.value());
            assertThat(r.timestamp()).isEqualTo(5000L + i).isEqualTo(record.timestamp());
            assertThat(Serdes.strings().deserialize("readings", record.key())).isEqualTo(r.sensor());
            sensors.add(r.sensor());
        }
        assertThat(sensors).startsWith("sensor-0", "sensor-1").endsWith("sensor-9", "sensor-0");
    }
}
