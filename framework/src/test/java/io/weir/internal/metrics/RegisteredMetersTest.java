package io.weir.internal.metrics;

import static org.assertj.core.api.Assertions.assertThat;

import io.weir.Topology;
import io.weir.TopologyBuilder;
import io.weir.common.KeyValue;
import io.weir.dsl.Emit;
import io.weir.dsl.TimeWindows;
import io.weir.serde.Serdes;
import io.weir.testdriver.TestDriver;
import io.weir.testing.MeterCatalogue;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/**
 * The meters a running application registers are the catalogue's, as the catalogue describes
 * them: here a test driver running a repartitioned windowed count, late records included.
 * OpsIT checks the same of a real instance and its {@code /metrics}.
 */
class RegisteredMetersTest {

    @Test
    void everyMeterARunningAppRegistersIsInTheCatalogueAsDescribed() {
        try (TestDriver driver = TestDriver.builder(windowedCountByValue())
                .config("late.records.mode", "drop")
                .build()) {
            driver.pipe("in", "k", "a", 1_500);
            driver.pipe("in", "k", "a", 300);
            assertThat(MeterCatalogue.mismatches(driver.meterRegistry())).isEmpty();
            assertThat(MeterCatalogue.registered(driver.meterRegistry()))
                    .contains(
                            WeirMeter.RECORDS_IN,
                            WeirMeter.RECORDS_OUT,
                            WeirMeter.PROCESS_LATENCY,
                            WeirMeter.COMMIT_LATENCY,
                            WeirMeter.RECORDS_LATE,
                            WeirMeter.RESTORE_RECORDS,
                            WeirMeter.TIME_SINCE_LAST_COMMIT,
                            WeirMeter.WATERMARK_AWAITING_WRITERS,
                            WeirMeter.STORE_ENTRIES);
        }
    }

    /** Counts per value in 1 s windows, through a repartition topic, emitted on close. */
    private static Topology windowedCountByValue() {
        TopologyBuilder b = new TopologyBuilder();
        b.stream(Serdes.strings(), Serdes.strings(), "in")
                .groupBy((k, v) -> v, Serdes.strings(), Serdes.strings())
                .windowedBy(TimeWindows.of(Duration.ofSeconds(1)))
                .emit(Emit.onWindowClose())
                .count("window-counts")
                .map((w, c) -> KeyValue.of(w.key() + "@" + w.start(), c))
                .to("out", Serdes.strings(), Serdes.longs());
        return b.build();
    }
}
