package io.weir.samples.sensors;

import static org.assertj.core.api.Assertions.assertThat;

import io.weir.serde.Serdes;
import io.weir.state.Windowed;
import io.weir.testdriver.TestDriver;
import io.weir.testdriver.TestRecord;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class SensorSumsTest {

    private static final long BASE = Instant.parse("2024-06-01T10:00:00Z").toEpochMilli();
    private static final long MINUTE = 60_000;
    private static final Duration OOO = Duration.ofSeconds(20);

    @Test
    void theSeedsSensorGivesTheSeedsSlidingSums() {
        SampleSensorReadings readings = new SampleSensorReadings(42, 3, 5, BASE);
        SensorSums.Expected sliding = SensorSums.expected(readings, SensorSums.SLIDING, OOO);

        assertThat(sliding.addends().get(new Windowed<>("sensor-1", BASE, BASE + MINUTE)))
                .containsExactly(9L, 6L, 8L, 4L);
        assertThat(sliding.sums())
                .containsEntry(new Windowed<>("sensor-1", BASE, BASE + MINUTE), 27L)
                .containsEntry(new Windowed<>("sensor-1", BASE + MINUTE / 2, BASE + 3 * MINUTE / 2), 22L);
        assertThat(SensorSums.expected(readings, SensorSums.TUMBLING, OOO).sums())
                .containsEntry(new Windowed<>("sensor-1", BASE, BASE + MINUTE), 27L);
    }

    @Test
    void readingsAreDeterministicEvery15SecondsWithOneDelayedAndClosingReadingsLast() {
        SampleSensorReadings a = new SampleSensorReadings(42, 3, 5, BASE);
        assertThat(a.feedOrder())
                .isEqualTo(new SampleSensorReadings(42, 3, 5, BASE).feedOrder())
                .hasSize(3 * 20 + 3);
        assertThat(a.regular()).hasSize(60).containsAll(a.feedOrder().subList(0, 60));
        SensorReading delayed = a.delayed();
        assertThat(delayed.sensor()).isEqualTo("sensor-2");
        assertThat(delayed.measuredAt()).isEqualTo(BASE + 105_000);
        List<SensorReading> fed = a.feedOrder();
        int at = fed.indexOf(delayed);
        assertThat(fed.subList(0, at))
                .filteredOn(r -> r.measuredAt() == BASE + 2 * MINUTE)
                .hasSize(3);
        assertThat(fed.subList(0, at)).allMatch(r -> r.measuredAt() <= BASE + 2 * MINUTE);
        assertThat(fed.subList(fed.size() - 3, fed.size())).allMatch(r -> r.measuredAt() == a.closingTime());
    }

    @Test
    void theDelayedReadingIsLateOnlyWithoutOutOfOrderness() {
        SampleSensorReadings readings = new SampleSensorReadings(42, 3, 5, BASE);
        Windowed<String> itsMinute = new Windowed<>("sensor-2", BASE + MINUTE, BASE + 2 * MINUTE);

        SensorSums.Expected tolerant = SensorSums.expected(readings, SensorSums.TUMBLING, OOO);
        SensorSums.Expected strict = SensorSums.expected(readings, SensorSums.TUMBLING, Duration.ZERO);

        assertThat(tolerant.late()).isEmpty();
        assertThat(strict.late()).containsExactly(itsMinute);
        assertThat(tolerant.sums().get(itsMinute) - strict.sums().get(itsMinute))
                .isEqualTo(readings.delayed().value());
        assertThat(SensorSums.expected(readings, SensorSums.SLIDING, Duration.ZERO)
                        .late())
                .containsExactly(itsMinute);
    }

    @Test
    void windowsHoldingTheClosingReadingsStayOpen() {
        SampleSensorReadings readings = new SampleSensorReadings(42, 3, 5, BASE);
        SensorSums.Expected sliding = SensorSums.expected(readings, SensorSums.SLIDING, OOO);
        assertThat(sliding.sums().keySet()).allMatch(w -> w.end() <= BASE + 5 * MINUTE + MINUTE / 2);
        assertThat(sliding.sums()).hasSize(3 * 11);
        assertThat(SensorSums.expected(readings, SensorSums.TUMBLING, OOO).sums())
                .hasSize(3 * 5);
    }

    @ParameterizedTest
    @ValueSource(ints = {0, 20, 30})
    void theTopologyEmitsEachClosedWindowOnceWithTheModelsSum(int outOfOrdernessSeconds) {
        SampleSensorReadings readings = new SampleSensorReadings(7, 4, 4, BASE);
        Duration ooo = Duration.ofSeconds(outOfOrdernessSeconds);
        try (TestDriver driver = TestDriver.builder(SensorSums.topology("readings", "tumbling", "sliding"))
                .partitions("readings", 4)
                .partitions("tumbling", 4)
                .partitions("sliding", 4)
                .config("max.out.of.orderness.ms", ooo.toMillis())
                .inMemoryStores()
                .build()) {
            long sent = System.currentTimeMillis();
            for (SensorReading r : readings.feedOrder()) {
                driver.pipe("readings", r.sensor(), r, sent++);
            }
            SensorSums.Expected tumbling = SensorSums.expected(readings, SensorSums.TUMBLING, ooo);
            SensorSums.Expected sliding = SensorSums.expected(readings, SensorSums.SLIDING, ooo);

            assertThat(onceEach(driver.allOutput("tumbling", Serdes.windowed(Serdes.strings()), Serdes.longs())))
                    .isEqualTo(tumbling.sums());
            assertThat(onceEach(driver.allOutput("sliding", Serdes.windowed(Serdes.strings()), Serdes.longs())))
                    .isEqualTo(sliding.sums());
            assertThat(driver.lateRecords())
                    .hasSize(tumbling.late().size() + sliding.late().size());
        }
    }

    private static Map<Windowed<String>, Long> onceEach(List<TestRecord<Windowed<String>, Long>> records) {
        Map<Windowed<String>, Long> results = new HashMap<>();
        for (TestRecord<Windowed<String>, Long> r : records) {
            assertThat(r.headers().lastString("weir.pane")).isEqualTo("final");
            assertThat(results.put(r.key(), r.value()))
                    .as("%s emitted twice", r.key())
                    .isNull();
        }
        return results;
    }
}
