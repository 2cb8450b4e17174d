package io.weir.benchmarks.verification;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class PauseTrackerTest {

    private static final long MS = 1_000_000;

    /** Receptions every {@code every} ms on {@code partition} from {@code from} ms to {@code to} ms inclusive. */
    private static void steady(PauseTracker t, int partition, long from, long to, long every) {
        for (long ms = from; ms <= to; ms += every) {
            t.received(partition, ms * MS);
        }
    }

    @Test
    void steadyOutputPausesOnlyBetweenCommits() {
        PauseTracker t = new PauseTracker(2, 0);
        steady(t, 0, 0, 10_000, 100);
        steady(t, 1, 50, 10_050, 100);

        PauseTracker.Pause p = t.longest(2_000 * MS, 8_000 * MS);

        assertThat(p.seconds()).isEqualTo(0.1);
    }

    @Test
    void findsTheLongestPauseOfAnyPartitionInTheWindow() {
        PauseTracker t = new PauseTracker(3, 0);
        steady(t, 0, 0, 10_000, 100);
        steady(t, 1, 0, 4_000, 100);
        steady(t, 1, 6_500, 10_000, 100); // 2.5 s pause
        steady(t, 2, 0, 5_000, 100);
        steady(t, 2, 6_000, 10_000, 100); // 1 s pause

        PauseTracker.Pause p = t.longest(3_000 * MS, 9_000 * MS);

        assertThat(p.partition()).isEqualTo(1);
        assertThat(p.beginNanos()).isEqualTo(4_000 * MS);
        assertThat(p.endNanos()).isEqualTo(6_500 * MS);
        assertThat(p.seconds()).isEqualTo(2.5);
    }

    @Test
    void countsAPauseThatEndsInTheWindowInFull() {
        PauseTracker t = new PauseTracker(1, 0);
        t.received(0, 1_000 * MS);
        t.received(0, 4_000 * MS);
        t.received(0, 4_100 * MS);

        assertThat(t.longest(3_000 * MS, 5_000 * MS).seconds()).isEqualTo(3.0);
    }

    @Test
    void ignoresPausesThatEndBeforeOrBeginAfterTheWindow() {
        PauseTracker t = new PauseTracker(1, 0);
        t.received(0, 1_000 * MS);
        t.received(0, 5_000 * MS); // 4 s pause before the window
        steady(t, 0, 5_100, 8_000, 100);
        t.received(0, 15_000 * MS); // 7 s pause that ends after it

        assertThat(t.longest(6_000 * MS, 8_000 * MS).seconds()).isEqualTo(0.1);
    }

    @Test
    void countsAPartitionStillPausedAtTheWindowsEnd() {
        PauseTracker t = new PauseTracker(2, 0);
        steady(t, 0, 0, 10_000, 100);
        steady(t, 1, 0, 7_000, 100); // stops

        PauseTracker.Pause p = t.longest(5_000 * MS, 10_000 * MS);

        assertThat(p.partition()).isEqualTo(1);
        assertThat(p.seconds()).isEqualTo(3.0);
    }

    @Test
    void aPartitionWithoutOutputHasPausedSinceTrackingStarted() {
        PauseTracker t = new PauseTracker(2, 500 * MS);
        steady(t, 0, 500, 10_000, 100);

        PauseTracker.Pause p = t.longest(5_000 * MS, 10_000 * MS);

        assertThat(p.partition()).isEqualTo(1);
        assertThat(p.beginNanos()).isEqualTo(500 * MS);
        assertThat(p.seconds()).isEqualTo(9.5);
    }

    @Test
    void rejectsReceptionsOutOfOrder() {
        PauseTracker t = new PauseTracker(1, 0);
        t.received(0, 2 * MS);

        assertThatThrownBy(() -> t.received(0, MS)).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void allReceivedSinceNeedsOutputOfEveryPartitionAfterTheMoment() {
        PauseTracker t = new PauseTracker(2, 0);
        steady(t, 0, 0, 5_000, 100);
        steady(t, 1, 0, 3_000, 100);

        assertThat(t.allReceivedSince(2_000 * MS)).isTrue();
        assertThat(t.allReceivedSince(4_000 * MS)).isFalse();
        assertThat(new PauseTracker(1, 0).allReceivedSince(0)).isFalse();
    }
}
