package io.weir.ported;

import static org.assertj.core.api.Assertions.assertThat;

import io.weir.common.KeyValue;
import io.weir.serde.Serdes;
import io.weir.state.Windowed;
import io.weir.testdriver.TestDriver;
import org.junit.jupiter.api.Test;

/**
 * The temperature port on the TestDriver. Kafka's demo has no test: the readings are this test's
 * own, two windows and a reading that comes late within the grace; the expected outputs are what
 * the demo writes for them (each window's maximum after every reading, when above 20).
 */
class TemperatureTest {

    @Test
    void writesEachWindowsMaximumAboveTheThreshold() {
        long t = 1_764_000_000_000L; // a multiple of 5 s: the first window starts here
        try (TestDriver driver = TestDriver.builder(Temperature.topology()).build()) {
            driver.pipe(Temperature.INPUT, "sensor", "18", t);
            driver.pipe(Temperature.INPUT, "sensor", "22", t + 1_000);
            driver.pipe(Temperature.INPUT, "sensor", "21", t + 2_000);
            driver.pipe(Temperature.INPUT, "sensor", "25", t + 3_000);
            driver.pipe(Temperature.INPUT, "sensor", "19", t + 6_000);
            driver.pipe(Temperature.INPUT, "sensor", "30", t + 7_000);
            driver.pipe(Temperature.INPUT, "sensor", "24", t + 1_000); // late, within the grace

            Windowed<String> first = new Windowed<>("temp", t, t + 5_000);
            Windowed<String> second = new Windowed<>("temp", t + 5_000, t + 10_000);
            assertThat(Outputs.pairs(
                            driver.output(Temperature.OUTPUT, Serdes.windowed(Serdes.strings()), Serdes.strings())))
                    .containsExactly(
                            KeyValue.of(first, "22"),
                            KeyValue.of(first, "22"),
                            KeyValue.of(first, "25"),
                            KeyValue.of(second, "30"),
                            KeyValue.of(first, "25"));
        }
    }
}
