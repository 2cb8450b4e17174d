package io.weir.internal.operator.window;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.weir.dsl.Emit;
import io.weir.dsl.TimeWindows;
import io.weir.internal.operator.aggregate.AggregateProcessor;
import io.weir.internal.operator.window.WindowHarness.Late;
import io.weir.internal.operator.window.WindowHarness.Out;
import io.weir.internal.topology.StoreSpec;
import io.weir.serde.Serdes;
import io.weir.state.KeyValueIterator;
import io.weir.state.WindowStore;
import io.weir.state.Windowed;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class TimeWindowProcessorTest {

    private static final String STORE = "sums";
    private static final long S = 1_000;

    private final List<WindowHarness<?>> opened = new ArrayList<>();

    @AfterEach
    void closeStores() {
        opened.forEach(WindowHarness::close);
    }

    private WindowHarness<Integer> summing(TimeWindows windows, Emit emit) {
        StoreSpec store = new StoreSpec(
                STORE,
                Serdes.strings(),
                Serdes.integers(),
                false,
                false,
                null,
                StoreSpec.Kind.WINDOW,
                windows.size().toMillis(),
                windows.allowedLateness());
        WindowHarness<Integer> h = new WindowHarness<>(
                store,
                TimeWindowProcessor.supplier(
                        STORE, windows, emit, AggregateProcessor.<String, Integer>reduceStep(Integer::sum)));
        opened.add(h);
        return h;
    }

    private static TimeWindows tumbling(long sizeSeconds) {
        return TimeWindows.of(Duration.ofSeconds(sizeSeconds));
    }

    private static Out fin(String key, long start, long end, int value) {
        return new Out(key, start, end, value, end - 1, "final");
    }

    private static Out pane(String pane, String key, long start, long end, int value) {
        return new Out(key, start, end, value, end - 1, pane);
    }

    @Test
    void oneMinuteWindowsSlidingEveryThirtySecondsSumTheSensorValuesOfEachWindow() {
        // the worked example: [0 s, 60 s) holds 9, 6, 8, 4 and [30 s, 90 s) holds 8, 4, 7, 3
        WindowHarness<Integer> h =
                summing(TimeWindows.of(Duration.ofMinutes(1)).advanceBy(Duration.ofSeconds(30)), Emit.atWatermark());
        h.pipe("sensor-1", 9, 0)
                .pipe("sensor-1", 6, 10 * S)
                .pipe("sensor-1", 8, 35 * S)
                .pipe("sensor-1", 4, 50 * S);
        assertThat(h.emitted()).isEmpty();
        h.pipe("sensor-1", 7, 65 * S); // the watermark passes 60 s: the first window is final
        assertThat(h.emitted()).containsExactly(fin("sensor-1", 0, 60 * S, 27));
        h.pipe("sensor-1", 3, 80 * S).watermark(90 * S);
        assertThat(h.emitted()).containsExactly(fin("sensor-1", 0, 60 * S, 27), fin("sensor-1", 30 * S, 90 * S, 22));
        h.watermark(120 * S);
        assertThat(h.emitted()).endsWith(fin("sensor-1", 60 * S, 120 * S, 10));
        assertThat(h.late()).isEmpty();
    }

    @Test
    void tumblingWindowsEmitOneSumPerKeyAndWindowInWindowOrder() {
        WindowHarness<Integer> h = summing(tumbling(10), Emit.atWatermark());
        h.pipe("a", 1, 1 * S)
                .pipe("b", 10, 2 * S)
                .pipe("a", 2, 9 * S)
                .pipe("a", 5, 12 * S)
                .pipe("b", 20, 19_999);
        assertThat(h.emitted()).containsExactly(fin("a", 0, 10 * S, 3), fin("b", 0, 10 * S, 10));
        h.watermark(20 * S);
        assertThat(h.emitted())
                .containsExactly(
                        fin("a", 0, 10 * S, 3),
                        fin("b", 0, 10 * S, 10),
                        fin("a", 10 * S, 20 * S, 5),
                        fin("b", 10 * S, 20 * S, 20));
        h.watermark(1_000 * S);
        assertThat(h.emitted()).hasSize(4);
    }

    @Test
    void atWatermarkEmitsALateUpdateForARecordWithinTheAllowedLateness() {
        WindowHarness<Integer> h = summing(tumbling(10).allowedLateness(Duration.ofSeconds(5)), Emit.atWatermark());
        h.pipe("a", 1, 1 * S).pipe("a", 1, 12 * S);
        assertThat(h.takeUncommitted()).containsExactly(fin("a", 0, 10 * S, 1));
        h.pipe("a", 2, 5 * S); // late by the watermark, within the lateness
        assertThat(h.takeUncommitted()).containsExactly(pane("late", "a", 0, 10 * S, 3));
        h.pipe("b", 0, 15 * S).pipe("a", 4, 6 * S); // the window closed at 15 s
        assertThat(h.takeUncommitted()).isEmpty();
        assertThat(h.late()).containsExactly(new Late(STORE, 0, 10 * S, 4, 6 * S));
    }

    @Test
    void onWindowCloseIncludesARecordWithinTheAllowedLatenessSilentlyAndEmitsOnce() {
        WindowHarness<Integer> h = summing(tumbling(10).allowedLateness(Duration.ofSeconds(5)), Emit.onWindowClose());
        h.pipe("a", 1, 1 * S).pipe("a", 1, 12 * S).pipe("a", 2, 5 * S);
        assertThat(h.emitted()).isEmpty();
        h.pipe("b", 0, 14_999);
        assertThat(h.emitted()).isEmpty();
        h.pipe("b", 0, 15 * S);
        assertThat(h.emitted()).containsExactly(fin("a", 0, 10 * S, 3));
        h.pipe("a", 4, 6 * S).watermark(100 * S);
        assertThat(h.late()).containsExactly(new Late(STORE, 0, 10 * S, 4, 6 * S));
        assertThat(h.emitted())
                .containsExactly(fin("a", 0, 10 * S, 3), fin("a", 10 * S, 20 * S, 1), fin("b", 10 * S, 20 * S, 0));
    }

    @Test
    void aRecordPastTheAllowedLatenessIsReportedLateWithItsWindowAndNotAggregated() {
        WindowHarness<Integer> h = summing(tumbling(10), Emit.atWatermark());
        h.pipe("a", 1, 1 * S).pipe("a", 1, 10 * S);
        h.pipe("a", 7, 9_999);
        assertThat(h.late()).containsExactly(new Late(STORE, 0, 10 * S, 7, 9_999));
        assertThat(h.emitted()).containsExactly(fin("a", 0, 10 * S, 1));
        WindowStore<String, Integer> store = h.store(STORE);
        assertThat(store.fetch("a", 0)).isEqualTo(1);
    }

    @Test
    void aHoppingRecordLateForOneWindowIsAggregatedIntoItsOpenOnes() {
        WindowHarness<Integer> h = summing(tumbling(10).advanceBy(Duration.ofSeconds(5)), Emit.atWatermark());
        h.pipe("a", 1, 7 * S).pipe("b", 0, 12 * S);
        assertThat(h.takeUncommitted()).containsExactly(fin("a", 0, 10 * S, 1));
        h.pipe("a", 5, 8 * S); // windows [0, 10) (closed) and [5, 15) (open)
        assertThat(h.late()).containsExactly(new Late(STORE, 0, 10 * S, 5, 8 * S));
        h.watermark(15 * S);
        assertThat(h.takeUncommitted()).containsExactly(fin("a", 5 * S, 15 * S, 6), fin("b", 5 * S, 15 * S, 0));
    }

    @Test
    void anAbortTakesTheFiringBackAndTheReplayFiresEachWindowOnce() {
        WindowHarness<Integer> h = summing(tumbling(10), Emit.atWatermark());
        h.pipe("a", 1, 1 * S).pipe("a", 2, 11 * S).commit();
        assertThat(h.committed()).containsExactly(fin("a", 0, 10 * S, 1));
        h.pipe("a", 4, 25 * S); // fires [10, 20), then the transaction aborts
        assertThat(h.emitted()).hasSize(2);
        h.abort();
        assertThat(h.emitted()).containsExactly(fin("a", 0, 10 * S, 1));
        h.pipe("a", 4, 25 * S).commit(); // the replay
        assertThat(h.committed()).containsExactly(fin("a", 0, 10 * S, 1), fin("a", 10 * S, 20 * S, 2));
        h.watermark(30 * S).commit();
        assertThat(h.committed())
                .containsExactly(fin("a", 0, 10 * S, 1), fin("a", 10 * S, 20 * S, 2), fin("a", 20 * S, 30 * S, 4));
    }

    @Test
    void afterAnAbortAWindowWhoseFiringWasTakenBackFiresWhenTheWatermarkPassesItAgainWithoutARecordOfIt() {
        WindowHarness<Integer> h = summing(tumbling(10), Emit.atWatermark());
        h.pipe("a", 1, 1 * S).pipe("b", 1, 5 * S).commit();
        h.watermark(10 * S).abort(); // [0, 10) fired, then taken back
        h.watermark(9 * S);
        assertThat(h.emitted()).isEmpty();
        h.watermark(40 * S).commit(); // the idle release passes it again
        assertThat(h.committed()).containsExactly(fin("a", 0, 10 * S, 1), fin("b", 0, 10 * S, 1));
    }

    @Test
    void aRestartResumesFromTheCommittedWatermarkWithoutReEmittingNorSkipping() {
        WindowHarness<Integer> h = summing(tumbling(10), Emit.atWatermark());
        h.pipe("a", 1, 1 * S).pipe("a", 2, 25 * S).pipe("b", 3, 31 * S).commit();
        assertThat(h.committed()).containsExactly(fin("a", 0, 10 * S, 1), fin("a", 20 * S, 30 * S, 2));
        h.pipe("c", 9, 45 * S); // not committed: lost in the crash
        h.restart();
        assertThat(h.emitted()).hasSize(2);
        h.watermark(39 * S);
        assertThat(h.emitted()).hasSize(2);
        h.watermark(40 * S).commit(); // b's window was restored, not written by this instance
        assertThat(h.committed())
                .containsExactly(fin("a", 0, 10 * S, 1), fin("a", 20 * S, 30 * S, 2), fin("b", 30 * S, 40 * S, 3));
    }

    @Test
    void earlyEveryNRecordsEmitsWhileTheWindowIsOpenThenTheFinalAndLateResults() {
        WindowHarness<Integer> h = summing(tumbling(10).allowedLateness(Duration.ofSeconds(10)), Emit.earlyEvery(2));
        h.pipe("a", 1, 1 * S).pipe("b", 5, 1 * S).pipe("a", 2, 2 * S).pipe("a", 3, 3 * S);
        assertThat(h.takeUncommitted()).containsExactly(pane("early", "a", 0, 10 * S, 3));
        h.pipe("a", 4, 4 * S);
        assertThat(h.takeUncommitted()).containsExactly(pane("early", "a", 0, 10 * S, 10));
        h.pipe("a", 5, 10 * S);
        assertThat(h.takeUncommitted()).containsExactly(fin("a", 0, 10 * S, 10), fin("b", 0, 10 * S, 5));
        h.pipe("a", 6, 5 * S);
        assertThat(h.takeUncommitted()).containsExactly(pane("late", "a", 0, 10 * S, 16));
    }

    @Test
    void earlyByIntervalEmitsTheWindowsChangedSinceTheLastIntervalAndForgetsThemOnAbort() {
        WindowHarness<Integer> h = summing(tumbling(10), Emit.early(Duration.ofSeconds(1)));
        assertThat(h.wallClockSchedules()).isEqualTo(1);
        h.pipe("a", 1, 1 * S).pipe("b", 2, 2 * S).pipe("a", 3, 3 * S).punctuate();
        assertThat(h.takeUncommitted())
                .containsExactly(pane("early", "a", 0, 10 * S, 4), pane("early", "b", 0, 10 * S, 2));
        h.punctuate();
        assertThat(h.takeUncommitted()).isEmpty();
        h.commit();
        h.pipe("a", 1, 4 * S).abort().punctuate();
        assertThat(h.takeUncommitted()).isEmpty();
        h.pipe("a", 1, 4 * S).pipe("c", 1, 10 * S).punctuate();
        assertThat(h.takeUncommitted())
                .containsExactly(fin("a", 0, 10 * S, 5), fin("b", 0, 10 * S, 2), pane("early", "c", 10 * S, 20 * S, 1));
    }

    /**
     * A task far behind its input skips the intervals' early results: the changed windows wait for
     * an interval when it has caught up (with their latest result), or for their final result.
     */
    @Test
    void earlyByIntervalSkipsEarlyResultsWhileTheTaskIsBehindItsInput() {
        WindowHarness<Integer> h = summing(tumbling(10), Emit.early(Duration.ofSeconds(1)));
        h.behind = true;
        h.pipe("a", 1, 1 * S)
                .punctuate()
                .pipe("a", 2, 2 * S)
                .punctuate()
                .pipe("b", 1, 3 * S)
                .punctuate();
        assertThat(h.takeUncommitted()).as("behind: no early result").isEmpty();

        h.behind = false;
        h.punctuate();
        assertThat(h.takeUncommitted())
                .as("caught up: the latest of each changed window, once")
                .containsExactly(pane("early", "a", 0, 10 * S, 3), pane("early", "b", 0, 10 * S, 1));

        h.behind = true;
        h.pipe("a", 4, 4 * S).punctuate().pipe("c", 1, 10 * S);
        assertThat(h.takeUncommitted())
                .as("the final results are not held back")
                .containsExactly(fin("a", 0, 10 * S, 7), fin("b", 0, 10 * S, 1));
    }

    @Test
    void everyUpdateEmitsEachNewResultAndNothingOnTheWatermark() {
        WindowHarness<Integer> h = summing(tumbling(10).allowedLateness(Duration.ofSeconds(5)), Emit.everyUpdate());
        h.pipe("a", 1, 1 * S)
                .pipe("a", 2, 2 * S)
                .pipe("a", 3, 12 * S)
                .pipe("a", 4, 9 * S)
                .watermark(100 * S);
        assertThat(h.emitted())
                .containsExactly(
                        pane("update", "a", 0, 10 * S, 1),
                        pane("update", "a", 0, 10 * S, 3),
                        pane("update", "a", 10 * S, 20 * S, 3),
                        pane("update", "a", 0, 10 * S, 7));
    }

    @Test
    void closedWindowsAreDroppedFromTheStoreAfterACommit() {
        WindowHarness<Integer> h = summing(tumbling(10).allowedLateness(Duration.ofSeconds(5)), Emit.atWatermark());
        WindowStore<String, Integer> store = h.store(STORE);
        h.pipe("a", 1, 1 * S).pipe("a", 1, 14_999).commit();
        assertThat(store.fetch("a", 0)).isEqualTo(1);
        h.pipe("a", 1, 15 * S).commit();
        assertThat(store.fetch("a", 0)).isNull();
        assertThat(store.fetch("a", 10 * S)).isEqualTo(2);
    }

    @Test
    void aWatermarkAdvanceThatCanFireNothingDoesNotReadTheStore() {
        WindowHarness<Integer> h = summing(tumbling(10), Emit.atWatermark());
        AtomicInteger scans = new AtomicInteger();
        WindowStore<String, Integer> real = h.store(STORE);
        h.storeOverride = counting(real, scans);
        h.restart();
        h.watermark(1); // the first scan after a start lists what the store holds
        int afterStart = scans.get();
        for (long t = 2; t < 10 * S; t += 100) {
            h.pipe("a", 1, t);
        }
        assertThat(scans.get()).isEqualTo(afterStart);
        h.watermark(10 * S);
        assertThat(scans.get()).isEqualTo(afterStart + 1);
        assertThat(h.emitted()).containsExactly(fin("a", 0, 10 * S, 100));
    }

    @Test
    void aNullKeyOrANegativeTimeIsAnError() {
        WindowHarness<Integer> h = summing(tumbling(10), Emit.atWatermark());
        assertThatThrownBy(() -> h.pipe(null, 1, 1))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("null key")
                .hasMessageContaining(STORE);
        assertThatThrownBy(() -> h.pipe("a", 1, -1))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("negative timestamp");
    }

    /** A window store that counts the scans by time range. */
    private static WindowStore<String, Integer> counting(WindowStore<String, Integer> real, AtomicInteger scans) {
        return new WindowStore<>() {
            @Override
            public void put(String key, long windowStart, Integer value) {
                real.put(key, windowStart, value);
            }

            @Override
            public String name() {
                return real.name();
            }

            @Override
            public Integer fetch(String key, long windowStart) {
                return real.fetch(key, windowStart);
            }

            @Override
            public KeyValueIterator<Windowed<String>, Integer> fetch(String key, long fromStart, long toStart) {
                scans.incrementAndGet();
                return real.fetch(key, fromStart, toStart);
            }

            @Override
            public KeyValueIterator<Windowed<String>, Integer> fetchAll(long fromStart, long toStart) {
                scans.incrementAndGet();
                return real.fetchAll(fromStart, toStart);
            }

            @Override
            public long windowSize() {
                return real.windowSize();
            }
        };
    }
}
