package io.weir.docs.start;

import static org.assertj.core.api.Assertions.assertThat;

import io.weir.config.WeirConfig;
import io.weir.docs.start.AlertService.Alert;
import io.weir.docs.start.AlertService.Reading;
import io.weir.serde.Serdes;
import io.weir.testdriver.TestDriver;
import io.weir.testdriver.TestRecord;
import java.util.Map;
import org.junit.jupiter.api.Test;

class AlertServiceTest {

    @Test
    void alertsOnReadingsAboveNinetyAndCountsThem() {
        long t = 1_767_225_600_000L; // 2026-01-01T00:00:00Z
        // tag::test-driver[]
        try (TestDriver driver = TestDriver.builder(AlertService.topology()).build()) {
            driver.pipe("readings", "sensor-1", new Reading("sensor-1", 95.0, t), t);
            driver.pipe("readings", "sensor-1", new Reading("sensor-1", 80.0, t + 1000), t + 1000);

            assertThat(driver.output("alerts", Serdes.strings(), Serdes.json(Alert.class)))
                    .extracting(TestRecord::value)
                    .containsExactly(new Alert("sensor-1", 95.0, t));
            assertThat(driver.<String, Long>store("alert-counts").get("sensor-1"))
                    .isEqualTo(1L);
        }
        // end::test-driver[]
    }

    @Test
    void configNamesTheApplicationAndLetsArgumentsAddAFile() {
        WeirConfig config = AlertService.config().environment(Map.of()).build();
        assertThat(config.applicationId()).isEqualTo("my-weir-service");
        assertThat(config.bootstrapServers()).isEqualTo("localhost:9092");
    }
}
