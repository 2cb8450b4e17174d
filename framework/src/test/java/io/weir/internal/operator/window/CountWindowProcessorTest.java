package io.weir.internal.operator.window;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.weir.common.KeyValue;
import io.weir.dsl.CountWindows;
import io.weir.internal.operator.FakeContext;
import io.weir.internal.operator.aggregate.AggregateProcessor;
import io.weir.internal.operator.window.WindowHarness.Out;
import io.weir.internal.state.TaskStores;
import io.weir.internal.topology.StoreSpec;
import io.weir.processor.Headers;
import io.weir.processor.Processor;
import io.weir.processor.Record;
import io.weir.processor.TaskId;
import io.weir.serde.Serde;
import io.weir.serde.Serdes;
import io.weir.state.KeyValueIterator;
import io.weir.state.KeyValueStore;
import io.weir.state.Windowed;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class CountWindowProcessorTest {

    private static final String STORE = "windows";

    /**
     * A task in miniature: real stores (in memory, with pending writes, commit and abort), a
     * watermark the test moves, and the emitted records split into committed and uncommitted.
     */
    private static final class Harness<VA> extends FakeContext<Windowed<String>, VA> implements AutoCloseable {
        final TaskStores stores = TaskStores.open(
                List.of(new StoreSpec(STORE, Serdes.bytes(), Serdes.bytes(), false, true, null)),
                new TaskId(0, 0),
                Path.of("unused"),
                new TaskStores.Options("app", null, Duration.ofHours(1), 0, System::currentTimeMillis));
        final List<Out> committed = new ArrayList<>();
        final List<Out> uncommitted = new ArrayList<>();
        final List<Record<Windowed<String>, VA>> records = new ArrayList<>();
        final java.util.function.Supplier<Processor<String, String, Windowed<String>, VA>> supplier;
        Processor<String, String, Windowed<String>, VA> processor;
        long watermark = Long.MIN_VALUE;

        Harness(java.util.function.Supplier<Processor<String, String, Windowed<String>, VA>> supplier) {
            this.supplier = supplier;
            restart();
        }

        /** A new processor instance over the same (committed) stores, as after a restart. */
        void restart() {
            processor = supplier.get();
            processor.init(this);
        }

        Harness<VA> send(String key, String value, long time) {
            processor.process(new Record<>(key, value, time));
            return this;
        }

        Harness<VA> watermark(long w) {
            watermark = w;
            ((CountWindowProcessor<?, ?, ?>) processor).onWatermark(w);
            return this;
        }

        void commit() {
            stores.commit();
            committed.addAll(uncommitted);
            uncommitted.clear();
        }

        void abort(long committedWatermark) {
            stores.abort();
            uncommitted.clear();
            watermark = committedWatermark;
            ((CountWindowProcessor<?, ?, ?>) processor).afterAbort();
        }

        List<Out> all() {
            List<Out> all = new ArrayList<>(committed);
            all.addAll(uncommitted);
            return all;
        }

        KeyValueStore<byte[], byte[]> store() {
            return getStateStore(STORE);
        }

        long entries() {
            long n = 0;
            try (KeyValueIterator<byte[], byte[]> it = store().all()) {
                for (; it.hasNext(); it.next()) {
                    n++;
                }
            }
            return n;
        }

        @Override
        public void forward(Record<? extends Windowed<String>, ? extends VA> record) {
            @SuppressWarnings("unchecked")
            Record<Windowed<String>, VA> r = (Record<Windowed<String>, VA>) record;
            records.add(r);
            uncommitted.add(Out.of(r));
        }

        @Override
        public long currentWatermark() {
            return watermark;
        }

        @Override
        @SuppressWarnings("unchecked")
        public <S> S getStateStore(String name) {
            return (S) stores.typedByName().get(name);
        }

        @Override
        public void close() {
            stores.close();
        }
    }

    private final List<Harness<?>> opened = new ArrayList<>();

    @AfterEach
    void closeStores() {
        opened.forEach(Harness::close);
    }

    private <VA> Harness<VA> harness(
            CountWindows windows, Serde<VA> serde, AggregateProcessor.Step<String, String, VA> step) {
        Harness<VA> h = new Harness<>(
                () -> CountWindowProcessor.<String, String, VA>supplier(STORE, windows, Serdes.strings(), serde, step)
                        .get());
        opened.add(h);
        return h;
    }

    private Harness<Long> counting(CountWindows windows) {
        return harness(windows, Serdes.longs(), (k, v, c) -> c == null ? 1L : c + 1);
    }

    private Harness<String> concatenating(CountWindows windows) {
        return harness(windows, Serdes.strings(), (k, v, acc) -> acc == null ? v : acc + "," + v);
    }

    @Test
    void tumblingWindowsOfThreeEmitEveryThirdRecordOnceAndKeepTheSeventhOpen() {
        Harness<Long> h = counting(CountWindows.of(3));
        for (int i = 1; i <= 7; i++) {
            h.send("k", "v" + i, i * 10);
        }
        assertThat(h.all())
                .containsExactly(new Out("k", 10, 30, 3L, 30, "final"), new Out("k", 40, 60, 3L, 60, "final"));
        h.watermark(1_000_000); // no time-out: the 7th's window waits for two more records
        assertThat(h.all()).hasSize(2);
        h.send("k", "v8", 80).send("k", "v9", 90);
        assertThat(h.all()).last().isEqualTo(new Out("k", 70, 90, 3L, 90, "final"));
        assertThat(h.entries()).isZero(); // a key with no open window keeps nothing
    }

    @Test
    void withATimeOutTheOpenWindowIsEmittedWhenTheWatermarkReachesItsFirstRecordPlusTheTimeOut() {
        Harness<Long> h = counting(CountWindows.of(3).timeout(Duration.ofMillis(100)));
        for (int i = 1; i <= 7; i++) {
            h.send("k", "v" + i, i * 10).watermark(i * 10 - 5);
        }
        assertThat(h.all()).hasSize(2);
        h.watermark(169);
        assertThat(h.all()).hasSize(2);
        h.watermark(170); // 70 + 100 <= 170
        assertThat(h.all())
                .containsExactly(
                        new Out("k", 10, 30, 3L, 30, "final"),
                        new Out("k", 40, 60, 3L, 60, "final"),
                        new Out("k", 70, 70, 1L, 70, "timeout"));
        h.watermark(10_000);
        assertThat(h.all()).hasSize(3);
        assertThat(h.entries()).isZero(); // neither state nor index entry is left
    }

    @Test
    void aKeyThatNeverReceivesAnotherRecordStillClosesByTimeOutAndItsNextRecordsCountAfresh() {
        Harness<String> h = concatenating(CountWindows.of(3).timeout(Duration.ofMillis(50)));
        h.send("quiet", "q1", 100).send("quiet", "q2", 110);
        for (long t = 100; t <= 200; t += 10) {
            h.send("busy", "b" + t, t).watermark(t); // only another key moves time on
        }
        assertThat(h.all())
                .filteredOn(o -> o.key().equals("quiet"))
                .containsExactly(new Out("quiet", 100, 110, "q1,q2", 110, "timeout"));
        h.send("quiet", "q3", 300).send("quiet", "q4", 301).send("quiet", "q5", 302);
        assertThat(h.all()).last().isEqualTo(new Out("quiet", 300, 302, "q3,q4,q5", 302, "final"));
    }

    @Test
    void timedOutWindowsOfManyKeysAreEmittedInDeadlineOrder() {
        Harness<Long> h = counting(CountWindows.of(5).timeout(Duration.ofMillis(10)));
        h.send("c", "x", 30).send("a", "x", 10).send("b", "x", 20).send("a", "x", 11);
        h.watermark(25);
        assertThat(h.all()).extracting(Out::key).containsExactly("a");
        h.watermark(45);
        assertThat(h.all())
                .containsExactly(
                        new Out("a", 10, 11, 2L, 11, "timeout"),
                        new Out("b", 20, 20, 1L, 20, "timeout"),
                        new Out("c", 30, 30, 1L, 30, "timeout"));
    }

    @Test
    void slidingWindowsOfFourOpenAtEverySecondRecord() {
        Harness<String> h = concatenating(CountWindows.of(4).slideBy(2));
        for (int i = 0; i < 8; i++) {
            h.send("k", "r" + i, i);
        }
        assertThat(h.all())
                .containsExactly(
                        new Out("k", 0, 3, "r0,r1,r2,r3", 3, "final"),
                        new Out("k", 2, 5, "r2,r3,r4,r5", 5, "final"),
                        new Out("k", 4, 7, "r4,r5,r6,r7", 7, "final"));
        h.send("k", "r8", 8).send("k", "r9", 9);
        assertThat(h.all()).last().isEqualTo(new Out("k", 6, 9, "r6,r7,r8,r9", 9, "final"));
    }

    @Test
    void aSlidingWindowThatTimesOutLeavesTheOthersOfItsKeyOpen() {
        Harness<String> h = concatenating(CountWindows.of(4).slideBy(2).timeout(Duration.ofMillis(10)));
        h.send("k", "r0", 0).send("k", "r1", 1).send("k", "r2", 2); // windows from r0 and from r2
        h.watermark(10);
        assertThat(h.all()).containsExactly(new Out("k", 0, 2, "r0,r1,r2", 2, "timeout"));
        h.send("k", "r3", 3).send("k", "r4", 4).send("k", "r5", 5); // r4 opens a window, r5 fills r2's
        assertThat(h.all()).last().isEqualTo(new Out("k", 2, 5, "r2,r3,r4,r5", 5, "final"));
        h.watermark(14); // r4's window: 4 + 10
        assertThat(h.all()).last().isEqualTo(new Out("k", 4, 5, "r4,r5", 5, "timeout"));
        assertThat(h.entries()).isZero();
    }

    @Test
    void aggregatesWithAnInitializerAndReducesPerWindow() {
        Harness<Long> sum = harness(
                CountWindows.of(2), Serdes.longs(), (k, v, acc) -> (acc == null ? 100L : acc) + Long.parseLong(v));
        sum.send("k", "1", 1).send("k", "2", 2).send("k", "3", 3).send("k", "4", 4);
        assertThat(sum.all()).extracting(Out::value).containsExactly(103L, 107L);

        Harness<String> max = harness(
                CountWindows.of(3), Serdes.strings(), (k, v, acc) -> acc == null || v.compareTo(acc) > 0 ? v : acc);
        max.send("k", "b", 1).send("k", "c", 2).send("k", "a", 3);
        assertThat(max.all()).extracting(Out::value).containsExactly("c");
    }

    @Test
    void outOfOrderRecordsMakeTheWindowSpanTheirEarliestAndLatestTimes() {
        Harness<Long> h = counting(CountWindows.of(3));
        h.send("k", "x", 50).send("k", "x", 30).send("k", "x", 40);
        assertThat(h.all()).containsExactly(new Out("k", 30, 50, 3L, 50, "final"));
    }

    @Test
    void aFullWindowIsEmittedWithTheHeadersAndOriginOfTheRecordThatFilledIt() {
        Harness<Long> h = counting(CountWindows.of(2));
        h.send("k", "x", 1);
        h.processor.process(new Record<>(
                "k",
                "y",
                2,
                Headers.empty().with("trace", "t-1").with(CountWindowProcessor.PANE, "early"),
                "in",
                3,
                42));
        Record<Windowed<String>, Long> out = h.records.get(0);
        assertThat(out.headers().lastString("trace")).isEqualTo("t-1");
        assertThat(out.headers().lastString(CountWindowProcessor.PANE)).isEqualTo("final");
        assertThat(out.headers().size()).isEqualTo(2);
        assertThat(List.of(out.topic(), out.partition(), out.offset())).containsExactly("in", 3, 42L);
    }

    @Test
    void aWindowOpenedByARecordAlreadyPastItsTimeOutIsEmittedAtOnce() {
        Harness<Long> h = counting(CountWindows.of(3).timeout(Duration.ofMillis(10)));
        h.watermark(100);
        h.send("k", "late", 50);
        assertThat(h.all()).containsExactly(new Out("k", 50, 50, 1L, 50, "timeout"));
        assertThat(h.entries()).isZero();
    }

    @Test
    void aRecordWhoseAggregatorFailsLeavesNoOutputAndNoStateChange() {
        Harness<String> h = harness(CountWindows.of(2).slideBy(1), Serdes.strings(), (k, v, acc) -> {
            if (v.equals("bad") && acc != null && acc.equals("a")) {
                throw new IllegalStateException("boom"); // fails in the second window, after the first filled
            }
            return acc == null ? v : acc + "," + v;
        });
        h.send("k", "x", 1).send("k", "a", 2); // windows [x,a] emitted, [a] open
        assertThat(h.all()).hasSize(1);
        assertThatThrownBy(() -> h.send("k", "bad", 3)).hasMessage("boom");
        h.send("k", "b", 4);
        assertThat(h.all())
                .containsExactly(new Out("k", 1, 2, "x,a", 2, "final"), new Out("k", 2, 4, "a,b", 4, "final"));
    }

    @Test
    void aLongerTimeOutAfterARestartAppliesToWindowsAlreadyOpen() {
        Harness<Long> before = counting(CountWindows.of(3).timeout(Duration.ofMillis(10)));
        before.send("k", "x", 100);
        before.commit();
        Harness<Long> after = counting(CountWindows.of(3).timeout(Duration.ofMillis(50)));
        copyCommitted(before, after);
        after.watermark(110); // the old deadline: the stale index entry is moved to 150
        assertThat(after.all()).isEmpty();
        after.watermark(149);
        assertThat(after.all()).isEmpty();
        after.watermark(150);
        assertThat(after.all()).containsExactly(new Out("k", 100, 100, 1L, 100, "timeout"));
        assertThat(after.entries()).isZero();
    }

    private static void copyCommitted(Harness<?> from, Harness<?> to) {
        List<KeyValue<byte[], byte[]>> changelog = new ArrayList<>();
        try (KeyValueIterator<byte[], byte[]> it = from.store().all()) {
            it.forEachRemaining(changelog::add);
        }
        changelog.forEach(e -> to.store().put(e.key(), e.value())); // as a restore from the changelog would
        to.commit();
        to.restart();
    }

    @Test
    void aNullKeyIsRejected() {
        Harness<Long> h = counting(CountWindows.of(3));
        assertThatThrownBy(() -> h.send(null, "x", 1))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("null key");
    }

    /** A run with commits; {@code crash} happens after the first commit and is the variable part. */
    private List<Out> run(Consumer<Harness<String>> crash) {
        Harness<String> h = concatenating(CountWindows.of(3).slideBy(2).timeout(Duration.ofMillis(100)));
        h.send("a", "a1", 10).send("b", "b1", 11).send("a", "a2", 12).watermark(5);
        h.commit();
        crash.accept(h);
        h.send("a", "a3", 13).send("a", "a4", 14).send("b", "b2", 15).watermark(112); // b1 + 100 and a1 + 100
        h.send("a", "a5", 16).watermark(500);
        h.commit();
        return h.committed;
    }

    @Test
    void anUninterruptedRunEmitsEachWindowOnce() {
        assertThat(run(h -> {}))
                .containsExactly(
                        new Out("a", 10, 13, "a1,a2,a3", 13, "final"),
                        new Out("b", 11, 15, "b1,b2", 15, "timeout"),
                        new Out("a", 13, 16, "a3,a4,a5", 16, "final"),
                        new Out("a", 16, 16, "a5", 16, "timeout"));
    }

    @Test
    void afterAnAbortTheReplayEmitsExactlyWhatAnUninterruptedRunDoes() {
        List<Out> expected = run(h -> {});
        List<Out> replayed = run(h -> {
            // work that is aborted: its outputs and writes vanish, and the replay does it again
            h.send("a", "a3", 13).send("a", "a4", 14).send("b", "b2", 15).watermark(112);
            h.send("a", "a5", 16).watermark(500);
            h.abort(5);
        });
        assertThat(replayed).isEqualTo(expected);
    }

    @Test
    void aRestartedProcessorContinuesFromTheCommittedStore() {
        List<Out> expected = run(h -> {});
        List<Out> restarted = run(h -> {
            h.send("a", "a3", 13).watermark(200); // uncommitted when the process dies
            h.abort(5);
            h.restart();
        });
        assertThat(restarted).isEqualTo(expected);
    }

    @Test
    void aStoreRebuiltFromTheCommittedEntriesClosesWindowsOfKeysThatGetNoMoreRecords() {
        Harness<Long> first = counting(CountWindows.of(3).timeout(Duration.ofMillis(100)));
        first.send("quiet", "x", 10).send("busy", "x", 20).watermark(15);
        first.commit();
        Harness<Long> second = counting(CountWindows.of(3).timeout(Duration.ofMillis(100)));
        second.watermark = 15; // the resumed watermark
        copyCommitted(first, second);
        second.watermark(110);
        assertThat(second.all()).containsExactly(new Out("quiet", 10, 10, 1L, 10, "timeout"));
        second.watermark(120);
        assertThat(second.all()).extracting(Out::key).containsExactly("quiet", "busy");
    }
}
