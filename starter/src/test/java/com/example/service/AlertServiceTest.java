package com.example.service;

import static com.example.service.AlertService.ALERTS;
import static com.example.service.AlertService.ALERT_COUNTS;
import static com.example.service.AlertService.ALERT_COUNT_STORE;
import static com.example.service.AlertService.READINGS;
import static org.assertj.core.api.Assertions.assertThat;

import io.weir.testdriver.TestDriver;
import io.weir.testdriver.TestRecord;
import io.weir.serde.Serdes;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/**
 * The topology on {@link TestDriver}: no broker, on the test's thread, through the same tasks,
 * stores and exactly-once commit as in production. Each {@code pipe} returns once the record is
 * processed and committed, so the outputs can be asserted right after it.
 */
class AlertServiceTest {

    private static final long T0 = 1_767_225_600_000L; // 2026-01-01T00:00:00Z

    @Test
    void alertsOnReadingsAboveTheThresholdAndCountsThemPerSensor() {
        try (TestDriver driver = TestDriver.builder(AlertService.topology()).partitions(READINGS, 2).build()) {
            pipe(driver, new Reading("sensor-1", 95.0, T0));
            pipe(driver, new Reading("sensor-1", 80.0, T0 + 1_000));
            pipe(driver, new Reading("sensor-2", 90.0, T0 + 2_000));   // at the threshold: no alert
            pipe(driver, new Reading("sensor-1", 101.5, T0 + 3_000));
            pipe(driver, new Reading("sensor-2", 90.1, T0 + 4_000));

            assertThat(driver.output(ALERTS, Serdes.strings(), Serdes.json(Alert.class)))
                    .extracting(TestRecord::value)
                    .containsExactlyInAnyOrder(
                            new Alert("sensor-1", 95.0, T0),
                            new Alert("sensor-1", 101.5, T0 + 3_000),
                            new Alert("sensor-2", 90.1, T0 + 4_000));
            assertThat(lastCountPerSensor(driver.output(ALERT_COUNTS, Serdes.strings(), Serdes.longs())))
                    .isEqualTo(Map.of("sensor-1", 2L, "sensor-2", 1L));
            assertThat(driver.<String, Long>store(ALERT_COUNT_STORE).get("sensor-1")).isEqualTo(2L);
        }
    }

    @Test
    void skipsTombstonesAndDeadLettersReadingsThatAreNotJson() {
        try (TestDriver driver = TestDriver.builder(AlertService.topology()).build()) {
            driver.pipe(READINGS, "sensor-1", null, T0);
            // Piped as a plain string, so the source's JSON serde fails on it, as on bad input in production.
            driver.input(READINGS, Serdes.strings(), Serdes.strings()).pipe("sensor-1", "97.2", T0 + 1_000);

            assertThat(driver.output(ALERTS, Serdes.strings(), Serdes.json(Alert.class))).isEmpty();
            List<TestRecord<byte[], byte[]>> deadLetters = driver.deadLetters();
            assertThat(deadLetters).hasSize(1);
            assertThat(new String(deadLetters.get(0).value(), StandardCharsets.UTF_8)).isEqualTo("97.2");
        }
    }

    private static void pipe(TestDriver driver, Reading reading) {
        driver.pipe(READINGS, reading.sensor(), reading, reading.timestamp());
    }

    /** A count is written each time it changes; the last one per sensor is the total. */
    private static Map<String, Long> lastCountPerSensor(List<TestRecord<String, Long>> counts) {
        Map<String, Long> last = new TreeMap<>();
        counts.forEach(r -> last.put(r.key(), r.value()));
        return last;
    }
}
