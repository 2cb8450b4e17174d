package io.weir.dsl;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.Optional;
import java.util.OptionalLong;
import org.junit.jupiter.api.Test;

/** Windows and triggers are values: made by factories that validate, compared by content, absent parts empty. */
class WindowValuesTest {

    @Test
    void emitModesCarryTheirEarlyIntervalOrRecordCountAndNothingElse() {
        assertThat(Emit.atWatermark().kind()).isEqualTo(Emit.Kind.AT_WATERMARK);
        assertThat(Emit.atWatermark().earlyInterval()).isEmpty();
        assertThat(Emit.atWatermark().earlyRecords()).isEmpty();
        assertThat(Emit.early(Duration.ofSeconds(5)).earlyInterval()).contains(Duration.ofSeconds(5));
        assertThat(Emit.early(Duration.ofSeconds(5)).earlyRecords()).isEmpty();
        assertThat(Emit.earlyEvery(100).earlyRecords()).isEqualTo(OptionalLong.of(100));
        assertThat(Emit.earlyEvery(100).earlyInterval()).isEmpty();
        assertThat(Emit.earlyEvery(100))
                .isEqualTo(Emit.earlyEvery(100))
                .isNotEqualTo(Emit.earlyEvery(99))
                .hasSameHashCodeAs(Emit.earlyEvery(100))
                .hasToString("Emit.earlyEvery(100)");
        assertThat(Emit.onWindowClose()).isEqualTo(Emit.onWindowClose()).isNotEqualTo(Emit.everyUpdate());
    }

    @Test
    void earlyTriggersNeedAPositiveIntervalOrRecordCount() {
        assertThatThrownBy(() -> Emit.early(Duration.ZERO))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("at least 1 ms");
        assertThatThrownBy(() -> Emit.early(null)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> Emit.earlyEvery(0))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("at least 1 record");
    }

    @Test
    void countWindowsHaveNoTimeoutUntilOneIsGiven() {
        CountWindows tumbling = CountWindows.of(10);
        assertThat(tumbling.size()).isEqualTo(10);
        assertThat(tumbling.slide()).isEqualTo(10);
        assertThat(tumbling.timeout()).isEmpty();
        CountWindows sliding = tumbling.slideBy(5).timeout(Duration.ofMinutes(1));
        assertThat(sliding.slide()).isEqualTo(5);
        assertThat(sliding.timeout()).isEqualTo(Optional.of(Duration.ofMinutes(1)));
        assertThat(tumbling.timeout()).as("values are immutable").isEmpty();
        assertThat(CountWindows.of(10).slideBy(5)).isEqualTo(CountWindows.of(10).slideBy(5));
    }

    @Test
    void countWindowsRefuseSizesSlidesAndTimeoutsOutOfRange() {
        assertThatThrownBy(() -> CountWindows.of(0)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> CountWindows.of(10).slideBy(11))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("between 1 and its size (10)");
        assertThatThrownBy(() -> CountWindows.of(10).timeout(Duration.ZERO))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> CountWindows.of(10).timeout(null)).isInstanceOf(NullPointerException.class);
    }

    @Test
    void timeAndSessionWindowsValidateAndCompareByContent() {
        TimeWindows hopping = TimeWindows.of(Duration.ofMinutes(1)).advanceBy(Duration.ofSeconds(30));
        assertThat(hopping.size()).isEqualTo(Duration.ofMinutes(1));
        assertThat(hopping.advance()).isEqualTo(Duration.ofSeconds(30));
        assertThat(hopping.allowedLateness()).isZero();
        assertThat(hopping).isEqualTo(TimeWindows.of(Duration.ofMinutes(1)).advanceBy(Duration.ofSeconds(30)));
        assertThatThrownBy(() -> TimeWindows.of(Duration.ofMinutes(1)).advanceBy(Duration.ofMinutes(2)))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("at most its size");
        assertThatThrownBy(() -> TimeWindows.of(Duration.ofMinutes(1)).allowedLateness(Duration.ofSeconds(-1)))
                .isInstanceOf(IllegalArgumentException.class);
        SessionWindows sessions =
                SessionWindows.withInactivityGap(Duration.ofMinutes(5)).allowedLateness(Duration.ofMinutes(1));
        assertThat(sessions.inactivityGap()).isEqualTo(Duration.ofMinutes(5));
        assertThat(sessions.allowedLateness()).isEqualTo(Duration.ofMinutes(1));
        assertThatThrownBy(() -> SessionWindows.withInactivityGap(Duration.ZERO))
                .isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void timeWindowsKeepClosedWindowsForTheirRetentionWhichIsAtLeastTheAllowedLateness() {
        TimeWindows minute = TimeWindows.of(Duration.ofMinutes(1)).allowedLateness(Duration.ofSeconds(10));
        assertThat(minute.retention()).as("by default as long as the lateness").isEqualTo(Duration.ofSeconds(10));
        TimeWindows kept = minute.retainFor(Duration.ofHours(1));
        assertThat(kept.retention()).isEqualTo(Duration.ofHours(1));
        assertThat(kept.allowedLateness()).isEqualTo(Duration.ofSeconds(10));
        assertThat(kept.advanceBy(Duration.ofSeconds(30)).retention())
                .as("kept by advanceBy")
                .isEqualTo(Duration.ofHours(1));
        assertThat(kept)
                .isEqualTo(minute.retainFor(Duration.ofHours(1)))
                .hasSameHashCodeAs(minute.retainFor(Duration.ofHours(1)))
                .isNotEqualTo(minute);
        assertThat(minute.retainFor(Duration.ofSeconds(10)))
                .as("the same retention as the default")
                .isEqualTo(minute);
        assertThat(kept.toString()).contains("retention=PT1H");
        assertThatThrownBy(() -> minute.retainFor(Duration.ofSeconds(5)))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("retainFor(PT5S) is shorter than the allowed lateness (PT10S)");
        assertThatThrownBy(() -> kept.allowedLateness(Duration.ofHours(2)))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("retainFor(PT1H) is shorter than the allowed lateness (PT2H)");
    }
}
