package io.weir.internal.operator.window;

import static org.assertj.core.api.Assertions.assertThat;

import io.weir.dsl.Emit;
import io.weir.dsl.SessionWindows;
import io.weir.internal.operator.aggregate.AggregateProcessor;
import io.weir.internal.operator.window.WindowHarness.Late;
import io.weir.internal.operator.window.WindowHarness.Out;
import io.weir.serde.Serdes;
import io.weir.state.KeyValueStore;
import io.weir.state.SessionStore;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class SessionWindowProcessorTest {

    private static final String STORE = "clicks";
    private static final long M = 60_000;

    private final List<WindowHarness<?>> opened = new ArrayList<>();

    @AfterEach
    void closeStores() {
        opened.forEach(WindowHarness::close);
    }

    private WindowHarness<Long> counting(SessionWindows windows, Emit emit) {
        return harness(
                windows,
                emit,
                new SessionWindowProcessor.Aggregation<>(() -> 0L, AggregateProcessor.countStep(), (k, a, b) -> a + b),
                Serdes.longs());
    }

    private <VA> WindowHarness<VA> harness(
            SessionWindows windows,
            Emit emit,
            SessionWindowProcessor.Aggregation<String, Integer, VA> aggregation,
            io.weir.serde.Serde<VA> serde) {
        WindowHarness<VA> h = new WindowHarness<>(
                SessionWindowProcessor.stores(STORE, Serdes.strings(), serde, windows),
                SessionWindowProcessor.supplier(STORE, windows, emit, aggregation));
        opened.add(h);
        return h;
    }

    private static SessionWindows gap(long minutes) {
        return SessionWindows.withInactivityGap(Duration.ofMinutes(minutes));
    }

    private static Out session(String pane, String key, long start, long end, Object value) {
        return new Out(key, start, end, value, end, pane);
    }

    private static Out fin(String key, long start, long end, long count) {
        return session("final", key, start, end, count);
    }

    /** Three visitors; the third one's late click bridges its two sessions after the first was emitted. */
    private static void clicks(WindowHarness<Long> h) {
        h.pipe("alice", 1, 0)
                .pipe("bob", 1, 5 * M)
                .pipe("carol", 1, 10 * M)
                .pipe("alice", 1, 10 * M)
                .pipe("alice", 1, 20 * M)
                .pipe("bob", 1, 50 * M)
                .pipe("carol", 1, 60 * M);
    }

    @Test
    void aLateClickThatBridgesTwoSessionsRetractsTheEmittedOneAndEmitsTheMergedSessionWhenItEnds() {
        WindowHarness<Long> h = counting(gap(30).allowedLateness(Duration.ofMinutes(30)), Emit.atWatermark());
        clicks(h);
        assertThat(h.takeUncommitted())
                .containsExactly(
                        fin("bob", 5 * M, 5 * M, 1), fin("carol", 10 * M, 10 * M, 1), fin("alice", 0, 20 * M, 3));
        h.pipe("carol", 1, 35 * M); // within the gap of both of carol's sessions
        assertThat(h.takeUncommitted()).containsExactly(session("retract", "carol", 10 * M, 10 * M, null));
        SessionStore<String, Long> store = h.store(STORE);
        assertThat(store.fetchSession("carol", 10 * M, 60 * M)).isEqualTo(3);
        assertThat(store.fetchSession("carol", 10 * M, 10 * M)).isNull();
        h.pipe("dave", 1, 100 * M);
        assertThat(h.takeUncommitted()).containsExactly(fin("bob", 50 * M, 50 * M, 1), fin("carol", 10 * M, 60 * M, 3));
        assertThat(h.late()).isEmpty();
    }

    @Test
    void onWindowCloseEmitsEachSessionOnceWhenNoRecordCanJoinItAnyMore() {
        WindowHarness<Long> h = counting(gap(30).allowedLateness(Duration.ofMinutes(30)), Emit.onWindowClose());
        clicks(h);
        h.pipe("carol", 1, 35 * M);
        assertThat(h.emitted()).isEmpty();
        h.pipe("dave", 1, 100 * M); // closed: sessions ending before 100 - 60 min
        assertThat(h.takeUncommitted()).containsExactly(fin("bob", 5 * M, 5 * M, 1), fin("alice", 0, 20 * M, 3));
        h.watermark(200 * M);
        assertThat(h.takeUncommitted())
                .containsExactly(
                        fin("bob", 50 * M, 50 * M, 1),
                        fin("carol", 10 * M, 60 * M, 3),
                        fin("dave", 100 * M, 100 * M, 1));
    }

    @Test
    void aClickOfASessionThatAlreadyFiredUpdatesItAsLate() {
        WindowHarness<Long> h = counting(gap(30).allowedLateness(Duration.ofMinutes(30)), Emit.atWatermark());
        clicks(h);
        h.takeUncommitted();
        h.pipe("alice", 1, 15 * M); // inside alice's emitted session: same window, a late update
        assertThat(h.takeUncommitted()).containsExactly(session("late", "alice", 0, 20 * M, 4L));
        h.pipe("alice", 1, 25 * M); // extends it: the old window is withdrawn, the new one is complete already
        assertThat(h.takeUncommitted())
                .containsExactly(session("retract", "alice", 0, 20 * M, null), session("late", "alice", 0, 25 * M, 5L));
    }

    @Test
    void aRecordWhoseMergedSessionEndsBeforeTheWatermarkLessGapAndLatenessIsLate() {
        WindowHarness<Long> h = counting(gap(30).allowedLateness(Duration.ofMinutes(10)), Emit.atWatermark());
        h.pipe("alice", 1, 0).pipe("bob", 1, 100 * M);
        h.pipe("alice", 1, 59 * M); // 59 < 100 - 40: late; alice's closed session is not joined
        assertThat(h.late()).containsExactly(new Late(STORE, 59 * M, 59 * M, 1, 59 * M));
        h.pipe("alice", 1, 60 * M); // 60 == 100 - 40: accepted, as in Kafka Streams, a session of its own
        assertThat(h.late()).hasSize(1);
        assertThat(h.takeUncommitted())
                .containsExactly(fin("alice", 0, 0, 1), session("late", "alice", 60 * M, 60 * M, 1L));
    }

    @Test
    void aRecordAtExactlyTheGapAfterASessionJoinsItWhenItAdvancesTheWatermarkAsInKafkaStreams() {
        WindowHarness<Long> h = counting(gap(30), Emit.onWindowClose());
        h.pipe("a", 1, 0).pipe("a", 1, 30 * M); // advances to 30 min: joins [0, 0]
        h.watermark(200 * M);
        assertThat(h.emitted()).containsExactly(fin("a", 0, 30 * M, 2));
    }

    @Test
    void aRecordAtExactlyTheGapAfterASessionThatClosedIsLateWhereKafkaStreamsStartsASessionBesideIt() {
        WindowHarness<Long> h = counting(gap(30), Emit.onWindowClose());
        h.pipe("a", 1, 0).pipe("x", 1, 30 * M); // [0, 0] closes at 30 min and fires once x is processed
        assertThat(h.emitted()).containsExactly(fin("a", 0, 0, 1));
        h.pipe("a", 1, 30 * M); // within the gap of [0, 0]; Kafka Streams makes [30, 30]
        assertThat(h.late()).containsExactly(new Late(STORE, 0, 0, 1, 30 * M));
        h.watermark(200 * M);
        assertThat(h.emitted()).containsExactly(fin("a", 0, 0, 1), fin("x", 30 * M, 30 * M, 1));
    }

    @Test
    void aRecordBridgingAClosedSessionAndAnOpenOneIsLateForTheClosedOneAndLeavesTheOpenOneAsItWas() {
        WindowHarness<Long> h = counting(gap(10), Emit.onWindowClose());
        h.pipe("a", 1, 0).pipe("a", 1, 15 * M).pipe("a", 1, 20 * M).commit(); // [0, 0] closed at 10 min
        assertThat(h.emitted()).containsExactly(fin("a", 0, 0, 1));
        assertThat(h.<SessionStore<String, Long>>store(STORE).fetchSession("a", 0, 0))
                .as("expired")
                .isNull();
        h.pipe("a", 1, 8 * M); // joins [15, 20] in Kafka Streams, making [8, 20] over [0, 0]'s gap
        assertThat(h.late()).containsExactly(new Late(STORE, 0, 0, 1, 8 * M));
        h.watermark(200 * M);
        assertThat(h.emitted()).containsExactly(fin("a", 0, 0, 1), fin("a", 15 * M, 20 * M, 2));
    }

    @Test
    void anOpenSessionGrowsBackwardsButNeverIntoTheGapOfAClosedOneHoweverLongAgoThatClosed() {
        // Why the last closed session of a key is kept: [0, 0] closed at 10 min and left the session
        // store; the open session starts more than two gaps after it, yet grows back to within its gap.
        WindowHarness<Long> h = counting(gap(10), Emit.onWindowClose());
        h.pipe("a", 1, 0).pipe("a", 1, 30 * M);
        for (long t = 40; t <= 500; t += 10) {
            h.pipe("a", 1, t * M).commit(); // [30, t]: open however long it runs
        }
        h.pipe("a", 1, 21 * M).pipe("a", 1, 11 * M); // each within the gap of the open session's start
        assertThat(h.late()).isEmpty();
        h.pipe("a", 1, 5 * M); // would join [11, 500], and is within [0, 0]'s gap
        assertThat(h.late()).containsExactly(new Late(STORE, 0, 0, 1, 5 * M));
        h.watermark(1000 * M);
        assertThat(h.emitted()).containsExactly(fin("a", 0, 0, 1), fin("a", 11 * M, 500 * M, 50));
    }

    @Test
    void aRecordWithinTheGapOfASessionThatClosedWhenAPunctuationMovedTheWatermarkIsLate() {
        WindowHarness<Long> h = counting(gap(30), Emit.onWindowClose());
        h.pipe("a", 1, 0).pipe("x", 1, 20 * M).watermark(30 * M); // an idle partition released it: [0, 0] closed
        h.pipe("a", 1, 10 * M); // before its firing (deferred) and the commit
        assertThat(h.late()).containsExactly(new Late(STORE, 0, 0, 1, 10 * M));
        h.commit();
        assertThat(h.committed()).containsExactly(fin("a", 0, 0, 1));
        h.watermark(40 * M).pipe("a", 1, 25 * M); // after both, from the last-closed store
        assertThat(h.late()).containsExactly(new Late(STORE, 0, 0, 1, 10 * M), new Late(STORE, 0, 0, 1, 25 * M));
    }

    @Test
    void theLastClosedSessionOfAKeyIsWrittenAtTheCommitAtWhichItClosesAndOutlivesARestart() {
        WindowHarness<Long> h = counting(gap(30), Emit.atWatermark());
        KeyValueStore<String, ClosedSession> lastClosed = h.store(SessionWindowProcessor.lastClosedStoreName(STORE));
        h.pipe("a", 1, 0).pipe("a", 1, 40 * M).pipe("x", 1, 60 * M); // [0, 0] closed at 30 min
        assertThat(lastClosed.get("a")).as("not before the commit").isNull();
        h.abort();
        h.pipe("a", 1, 0).pipe("a", 1, 40 * M).pipe("x", 1, 60 * M).commit();
        assertThat(lastClosed.get("a")).isEqualTo(new ClosedSession(0, 0));
        h.pipe("x", 1, 100 * M).commit(); // [40, 40] closes: replaces [0, 0]
        assertThat(lastClosed.get("a")).isEqualTo(new ClosedSession(40 * M, 40 * M));
        h.restart().pipe("a", 1, 70 * M); // within the gap of [40, 40], which left the store
        assertThat(h.late()).containsExactly(new Late(STORE, 40 * M, 40 * M, 1, 70 * M));
    }

    @Test
    void aSessionDueAtTheNewWatermarkFiresOnlyAfterTheRecordThatMovedItThereOrAtTheCommit() {
        WindowHarness<Long> h = counting(gap(30), Emit.atWatermark());
        h.pipe("a", 1, 0).watermark(30 * M); // no record follows (an idle partition released it)
        assertThat(h.emitted()).isEmpty();
        h.commit();
        assertThat(h.committed()).containsExactly(fin("a", 0, 0, 1));
    }

    @Test
    void aRecordAtExactlyTheCloseOfASessionOfTheSameWindowIsLateRatherThanEmittingTheWindowAgain() {
        // Kafka Streams lets this record replace the fired session [0, 0] and emits the window again
        // (with 59, losing the 16); Weir keeps one result per session and reports the record late.
        WindowHarness<Long> h = harness(
                gap(30),
                Emit.onWindowClose(),
                new SessionWindowProcessor.Aggregation<>(() -> 0L, (k, v, sum) -> sum + v, (k, a, b) -> a + b),
                Serdes.longs());
        h.pipe("a", 16, 0).pipe("x", 1, 30 * M);
        assertThat(h.emitted()).containsExactly(fin("a", 0, 0, 16));
        h.pipe("a", 59, 0); // 0 == 30 - 30: at the boundary, [0, 0] closed at 30 min
        assertThat(h.emitted()).containsExactly(fin("a", 0, 0, 16));
        assertThat(h.late()).hasSize(1);
        h.pipe("b", 7, 0); // the same boundary, no session to replace: its own, at once
        assertThat(h.emitted()).containsExactly(fin("a", 0, 0, 16), fin("b", 0, 0, 7));
        assertThat(h.late()).hasSize(1);
    }

    @Test
    void everyUpdateRetractsTheMergedSessionsBeforeTheMergedResult() {
        WindowHarness<Long> h = counting(gap(30).allowedLateness(Duration.ofMinutes(30)), Emit.everyUpdate());
        h.pipe("carol", 1, 10 * M).pipe("carol", 1, 50 * M).pipe("carol", 1, 30 * M);
        assertThat(h.emitted())
                .containsExactly(
                        session("update", "carol", 10 * M, 10 * M, 1L),
                        session("update", "carol", 50 * M, 50 * M, 1L),
                        session("retract", "carol", 10 * M, 10 * M, null),
                        session("retract", "carol", 50 * M, 50 * M, null),
                        session("update", "carol", 10 * M, 50 * M, 3L));
    }

    @Test
    void earlyResultsCountTheRecordsOfMergedSessionsAndRetractAnEarlyResultMergedAway() {
        WindowHarness<Long> h = counting(gap(30), Emit.earlyEvery(2));
        h.pipe("carol", 1, 10 * M).pipe("carol", 1, 20 * M); // [10, 10]'s record counts towards [10, 20]
        assertThat(h.takeUncommitted()).containsExactly(session("early", "carol", 10 * M, 20 * M, 2L));
        h.pipe("carol", 1, 40 * M);
        assertThat(h.takeUncommitted()).containsExactly(session("retract", "carol", 10 * M, 20 * M, null));
        h.pipe("carol", 1, 45 * M);
        assertThat(h.takeUncommitted()).containsExactly(session("early", "carol", 10 * M, 45 * M, 4L));
        h.watermark(75 * M - 1);
        assertThat(h.takeUncommitted()).isEmpty();
        h.watermark(75 * M + 1);
        assertThat(h.takeUncommitted()).containsExactly(fin("carol", 10 * M, 45 * M, 4));
    }

    @Test
    void reduceAndMergerCombineSessionsInEndOrder() {
        WindowHarness<String> h = harness(
                gap(30).allowedLateness(Duration.ofMinutes(30)),
                Emit.onWindowClose(),
                new SessionWindowProcessor.Aggregation<>(() -> "", (k, v, acc) -> acc + v, (k, a, b) -> a + "|" + b),
                Serdes.strings());
        h.pipe("k", 1, 0).pipe("k", 2, 50 * M).pipe("k", 3, 25 * M).watermark(200 * M);
        assertThat(h.emitted()).containsExactly(session("final", "k", 0, 50 * M, "|1|23"));
    }

    @Test
    void anAbortOrARestartNeitherRepeatsNorSkipsASession() {
        WindowHarness<Long> h = counting(gap(30), Emit.atWatermark());
        h.pipe("a", 1, 0).pipe("b", 1, 10 * M).commit();
        h.pipe("c", 1, 40 * M + 1); // fires a's and b's sessions
        assertThat(h.emitted()).containsExactly(fin("a", 0, 0, 1), fin("b", 10 * M, 10 * M, 1));
        h.abort();
        assertThat(h.emitted()).isEmpty();
        h.pipe("c", 1, 40 * M + 1).commit();
        assertThat(h.committed()).containsExactly(fin("a", 0, 0, 1), fin("b", 10 * M, 10 * M, 1));
        h.restart().watermark(70 * M).commit();
        assertThat(h.committed()).containsExactly(fin("a", 0, 0, 1), fin("b", 10 * M, 10 * M, 1));
        h.watermark(70 * M + 1).commit(); // c's session fires at 70 min + 1 ms, deferred to the commit
        assertThat(h.committed())
                .containsExactly(fin("a", 0, 0, 1), fin("b", 10 * M, 10 * M, 1), fin("c", 40 * M + 1, 40 * M + 1, 1));
    }

    @Test
    void closedSessionsAreDroppedFromTheStoreAtTheCommitAtWhichTheyCloseAndFire() {
        WindowHarness<Long> h = counting(gap(30).allowedLateness(Duration.ofMinutes(10)), Emit.onWindowClose());
        SessionStore<String, Long> store = h.store(STORE);
        h.pipe("a", 1, 0).pipe("x", 1, 40 * M - 1).commit();
        assertThat(store.fetchSession("a", 0, 0)).isEqualTo(1);
        assertThat(h.emitted()).isEmpty();
        h.pipe("x", 1, 40 * M).commit();
        assertThat(h.emitted()).containsExactly(fin("a", 0, 0, 1));
        assertThat(store.fetchSession("a", 0, 0)).isNull();
        assertThat(h.<KeyValueStore<String, ClosedSession>>store(SessionWindowProcessor.lastClosedStoreName(STORE))
                        .get("a"))
                .isEqualTo(new ClosedSession(0, 0));
    }
}
