package io.weir.internal.operator.window;

import static org.assertj.core.api.Assertions.assertThat;

import io.weir.dsl.Emit;
import io.weir.dsl.SessionWindows;
import io.weir.dsl.TimeWindows;
import io.weir.internal.operator.aggregate.AggregateProcessor;
import io.weir.internal.topology.StoreSpec;
import io.weir.serde.Serdes;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;

/**
 * Exactly-once under failures: the same input, run once without interruption and once with
 * commits, aborts (the uncommitted records are replayed) and restarts at random points, commits the
 * same results and reports the same late records. Also shows that expiry after commits (which
 * the uninterrupted run never does until the end) does not change results.
 */
class WindowReplayTest {

    private record In(String key, int value, long time) {}

    private static final long S = 1_000;

    private static List<In> input(Random random) {
        List<In> in = new ArrayList<>();
        long now = 0;
        for (int i = 0; i < 400; i++) {
            now += random.nextInt(4 * (int) S);
            long time = random.nextInt(10) == 0 ? Math.max(0, now - random.nextInt(40 * (int) S)) : now;
            in.add(new In("k" + random.nextInt(5), random.nextInt(10), time));
        }
        return in;
    }

    private static void check(Supplier<WindowHarness<Long>> harness, long seed) {
        Random random = new Random(seed);
        List<In> in = input(random);
        long end = in.stream().mapToLong(In::time).max().orElseThrow() + 10 * 3600 * S;

        try (WindowHarness<Long> straight = harness.get();
                WindowHarness<Long> failing = harness.get()) {
            in.forEach(r -> straight.pipe(r.key(), r.value(), r.time()));
            straight.watermark(end).commit();

            List<In> uncommitted = new ArrayList<>();
            for (In r : in) {
                failing.pipe(r.key(), r.value(), r.time());
                uncommitted.add(r);
                int dice = random.nextInt(100);
                if (dice < 10) {
                    failing.commit();
                    uncommitted.clear();
                } else if (dice < 18) {
                    if (dice < 15) {
                        failing.abort();
                    } else {
                        failing.restart();
                    }
                    uncommitted.forEach(u -> failing.pipe(u.key(), u.value(), u.time()));
                }
            }
            failing.watermark(end).commit();

            assertThat(failing.committed()).as("seed %d", seed).isEqualTo(straight.committed());
            assertThat(failing.late()).as("seed %d", seed).isEqualTo(straight.late());
            assertThat(straight.committed()).isNotEmpty();
        }
    }

    private static Supplier<WindowHarness<Long>> time(TimeWindows windows, Emit emit) {
        StoreSpec store = new StoreSpec(
                "sums",
                Serdes.strings(),
                Serdes.longs(),
                false,
                false,
                null,
                StoreSpec.Kind.WINDOW,
                windows.size().toMillis(),
                windows.allowedLateness());
        return () -> new WindowHarness<>(
                store,
                TimeWindowProcessor.supplier(
                        "sums",
                        windows,
                        emit,
                        AggregateProcessor.<String, Integer, Long>aggregateStep(() -> 0L, (k, v, sum) -> sum + v)));
    }

    private static Supplier<WindowHarness<Long>> sessions(SessionWindows windows, Emit emit) {
        List<StoreSpec> stores = SessionWindowProcessor.stores("sessions", Serdes.strings(), Serdes.longs(), windows);
        return () -> new WindowHarness<>(
                stores,
                SessionWindowProcessor.supplier(
                        "sessions",
                        windows,
                        emit,
                        new SessionWindowProcessor.Aggregation<String, Integer, Long>(
                                () -> 0L, (k, v, sum) -> sum + v, (k, a, b) -> a + b)));
    }

    @Test
    void hoppingWindowsCommitTheSameResultsWhateverFails() {
        TimeWindows windows = TimeWindows.of(Duration.ofSeconds(30))
                .advanceBy(Duration.ofSeconds(10))
                .allowedLateness(Duration.ofSeconds(15));
        for (Emit emit : List.of(Emit.atWatermark(), Emit.onWindowClose(), Emit.everyUpdate())) {
            for (long seed = 1; seed <= 15; seed++) {
                check(time(windows, emit), seed);
            }
        }
    }

    @Test
    void sessionsCommitTheSameResultsWhateverFails() {
        SessionWindows windows =
                SessionWindows.withInactivityGap(Duration.ofSeconds(8)).allowedLateness(Duration.ofSeconds(20));
        for (Emit emit : List.of(Emit.atWatermark(), Emit.onWindowClose(), Emit.everyUpdate())) {
            for (long seed = 1; seed <= 15; seed++) {
                check(sessions(windows, emit), seed);
            }
        }
    }
}
