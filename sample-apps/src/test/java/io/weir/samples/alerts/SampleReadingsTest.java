package io.weir.samples.alerts;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;

import java.util.List;
import org.junit.jupiter.api.Test;

class SampleReadingsTest {

    @Test
    void sameSeedGivesSameReadings() {
        List<Reading> a = new SampleReadings(42, 10, 0, 1000).nextRounds(100);
        List<Reading> b = new SampleReadings(42, 10, 0, 1000).nextRounds(100);
        assertThat(a).hasSize(1000).isEqualTo(b);
    }

    @Test
    void temperaturesSpanSixtyToOneHundredWithSomeAboveNinety() {
        List<Reading> readings = new SampleReadings(42, 10, 0, 1000).nextRounds(100);
        assertThat(readings).allSatisfy(r -> assertThat(r.temperature()).isBetween(60.0, 100.0));
        assertThat(readings.stream().filter(r -> r.temperature() > 90).count()).isBetween(150L, 350L);
    }

    @Test
    void roundsAreOneReadingPerSensorStampedOneIntervalApart() {
        SampleReadings samples = new SampleReadings(1, 3, 10_000, 1000);
        assertThat(samples.nextRound())
                .extracting(Reading::sensor, Reading::timestamp)
                .containsExactly(tuple("sensor-0", 10_000L), tuple("sensor-1", 10_000L), tuple("sensor-2", 10_000L));
        assertThat(samples.nextRound()).extracting(Reading::timestamp).containsOnly(11_000L);
    }
}
