package io.weir.ported;

import static org.assertj.core.api.Assertions.assertThat;

import io.weir.common.KeyValue;
import io.weir.ported.SessionWindowsExample.PlayEvent;
import io.weir.serde.Serdes;
import io.weir.state.KeyValueIterator;
import io.weir.state.ReadOnlySessionStore;
import io.weir.state.Windowed;
import io.weir.testdriver.TestDriver;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The session-windows port on the TestDriver, with the inputs and expected outputs of Confluent's
 * {@code SessionWindowsExampleTest}: two sessions, then a record between them that merges them.
 */
class SessionWindowsExampleTest {

    private static final String USER = "erica";

    private static List<KeyValue<String, Long>> output(TestDriver driver) {
        return Outputs.pairs(
                driver.output(SessionWindowsExample.PLAY_EVENTS_PER_SESSION, Serdes.strings(), Serdes.longs()));
    }

    private static List<KeyValue<Windowed<String>, Long>> sessions(TestDriver driver) {
        ReadOnlySessionStore<String, Long> store = driver.sessionStore(SessionWindowsExample.PLAY_EVENTS_PER_SESSION);
        List<KeyValue<Windowed<String>, Long>> all = new ArrayList<>();
        try (KeyValueIterator<Windowed<String>, Long> it = store.findSessions(USER, 0, Long.MAX_VALUE)) {
            it.forEachRemaining(all::add);
        }
        return all;
    }

    @Test
    void countsPlayEventsBySession() {
        // The original starts at the wall clock; any time does.
        long start = 1_764_000_000_000L;
        try (TestDriver driver =
                TestDriver.builder(SessionWindowsExample.topology()).build()) {
            driver.pipe(SessionWindowsExample.PLAY_EVENTS, USER, new PlayEvent(1L, 10L), start);
            assertThat(output(driver)).containsExactly(KeyValue.of(USER + "@" + start + "->" + start, 1L));
            assertThat(sessions(driver)).containsExactly(KeyValue.of(new Windowed<>(USER, start, start), 1L));

            long secondSessionStart = start + SessionWindowsExample.INACTIVITY_GAP.toMillis() + 1;
            driver.pipe(SessionWindowsExample.PLAY_EVENTS, USER, new PlayEvent(2L, 10L), secondSessionStart);
            assertThat(output(driver))
                    .containsExactly(KeyValue.of(USER + "@" + secondSessionStart + "->" + secondSessionStart, 1L));
            assertThat(sessions(driver))
                    .containsExactly(
                            KeyValue.of(new Windowed<>(USER, start, start), 1L),
                            KeyValue.of(new Windowed<>(USER, secondSessionStart, secondSessionStart), 1L));

            // Within the gap of both: the two sessions merge. Their results are retracted (a null
            // count for each, header weir.pane=retract) before the merged session's result
            // (docs/time-and-windows.md, "Session windows"), as Kafka Streams does.
            long mergeTime = start + SessionWindowsExample.INACTIVITY_GAP.toMillis() / 2;
            driver.pipe(SessionWindowsExample.PLAY_EVENTS, USER, new PlayEvent(3L, 10L), mergeTime);
            assertThat(output(driver))
                    .containsExactly(
                            KeyValue.of(USER + "@" + start + "->" + start, null),
                            KeyValue.of(USER + "@" + secondSessionStart + "->" + secondSessionStart, null),
                            KeyValue.of(USER + "@" + start + "->" + secondSessionStart, 3L));
            assertThat(sessions(driver))
                    .containsExactly(KeyValue.of(new Windowed<>(USER, start, secondSessionStart), 3L));
        }
    }
}
