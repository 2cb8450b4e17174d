package io.weir.samples.common;

import static org.assertj.core.api.Assertions.assertThat;

import io.weir.dsl.SessionWindows;
import io.weir.dsl.TimeWindows;
import io.weir.state.Windowed;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

class WindowModelTest {

    private static final TimeWindows MINUTE = TimeWindows.of(Duration.ofMinutes(1));
    private static final TimeWindows SLIDING = MINUTE.advanceBy(Duration.ofSeconds(30));
    private static final SessionWindows FIVE_MINUTES = SessionWindows.withInactivityGap(Duration.ofMinutes(5));

    @Test
    void aTumblingWindowIncludesItsStartAndExcludesItsEnd() {
        assertThat(WindowModel.timeWindows(MINUTE, "k", 120_000))
                .containsExactly(new Windowed<>("k", 120_000, 180_000));
        assertThat(WindowModel.timeWindows(MINUTE, "k", 179_999))
                .containsExactly(new Windowed<>("k", 120_000, 180_000));
    }

    @Test
    void aSlidingWindowRecordIsInSizeOverAdvanceWindowsEarliestFirst() {
        assertThat(WindowModel.timeWindows(SLIDING, "k", 75_000))
                .containsExactly(new Windowed<>("k", 30_000, 90_000), new Windowed<>("k", 60_000, 120_000));
        assertThat(WindowModel.timeWindows(SLIDING, "k", 60_000))
                .containsExactly(new Windowed<>("k", 30_000, 90_000), new Windowed<>("k", 60_000, 120_000));
    }

    @Test
    void noWindowStartsBeforeZero() {
        assertThat(WindowModel.timeWindows(SLIDING, "k", 10_000)).containsExactly(new Windowed<>("k", 0, 60_000));
    }

    @Test
    void timesWithinTheGapFormOneSessionInAnyOrder() {
        long m = 60_000;
        assertThat(WindowModel.sessions(FIVE_MINUTES, "A", List.of(12 * m, 0L, 5 * m, 30 * m, 4 * m)))
                .containsExactly(
                        new Windowed<>("A", 0, 5 * m),
                        new Windowed<>("A", 12 * m, 12 * m),
                        new Windowed<>("A", 30 * m, 30 * m));
        assertThat(WindowModel.sessions(FIVE_MINUTES, "A", List.of())).isEmpty();
    }

    @Test
    void aTimeWindowClosesWhenTheWatermarkReachesItsEndAndASessionWhenItPassesEndPlusGap() {
        assertThat(WindowModel.closed(new Windowed<>("k", 0, 60_000), 59_999)).isFalse();
        assertThat(WindowModel.closed(new Windowed<>("k", 0, 60_000), 60_000)).isTrue();
        Windowed<String> session = new Windowed<>("A", 0, 60_000);
        assertThat(WindowModel.closed(session, FIVE_MINUTES, 360_000)).isFalse();
        assertThat(WindowModel.closed(session, FIVE_MINUTES, 360_001)).isTrue();
    }
}
