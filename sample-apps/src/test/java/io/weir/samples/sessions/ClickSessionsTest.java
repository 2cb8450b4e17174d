package io.weir.samples.sessions;

import static org.assertj.core.api.Assertions.assertThat;

import io.weir.samples.common.WindowResults;
import io.weir.serde.Serdes;
import io.weir.state.Windowed;
import io.weir.testdriver.TestDriver;
import io.weir.testdriver.TestRecord;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class ClickSessionsTest {

    private static final long BASE = Instant.parse("2024-06-01T10:00:00Z").toEpochMilli();
    private static final long MINUTE = 60_000;

    @Test
    void theModelFindsTheVisitorsSessionsAndTheMergeOfAsFirstTwo() {
        ClickSessions.Expected expected = ClickSessions.expected(new SampleClicks(BASE));

        Windowed<String> aFirst = session("A", 0, 200);
        Windowed<String> aSecond = session("A", 12 * 60, 15 * 60);
        Windowed<String> aMerged = session("A", 0, 15 * 60);
        assertThat(expected.retracted()).containsExactly(aFirst, aSecond);
        assertThat(expected.merged()).isEqualTo(aMerged);
        assertThat(expected.sessions())
                .containsExactly(
                        Map.entry(aMerged, 10L),
                        Map.entry(session("A", 35 * 60, 38 * 60), 3L),
                        Map.entry(session("B", 2 * 60, 6 * 60 + 30), 4L),
                        Map.entry(session("B", 21 * 60 + 30, 25 * 60 + 15), 3L),
                        Map.entry(session("C", 5 * 60, 18 * 60), 5L),
                        Map.entry(session("C", 30 * 60, 31 * 60), 2L));
        assertThat(expected.open())
                .containsExactlyInAnyOrder(
                        session("A", 90 * 60, 90 * 60), session("B", 90 * 60, 90 * 60), session("C", 90 * 60, 90 * 60));
    }

    @Test
    void theBridgingClickIsFedAfterAsThirdBurstAndEveryClickUpTo40Minutes() {
        SampleClicks clicks = new SampleClicks(BASE);
        List<Click> before = clicks.beforeBridge();
        assertThat(before).allMatch(c -> c.clickedAt() <= BASE + 40 * MINUTE);
        assertThat(before).extracting(Click::clickedAt).isSorted().contains(BASE + 38 * MINUTE);
        assertThat(clicks.feedOrder()).hasSize(before.size() + 1 + 3);
        assertThat(clicks.bridge().clickedAt()).isEqualTo(BASE + 8 * MINUTE);
    }

    @ParameterizedTest
    @ValueSource(ints = {1, 4})
    void theTopologyRetractsAsTwoSessionsBeforeEmittingTheMergedOne(int partitions) {
        SampleClicks clicks = new SampleClicks(BASE);
        ClickSessions.Expected expected = ClickSessions.expected(clicks);
        try (TestDriver driver = TestDriver.builder(ClickSessions.topology("clicks", "sessions"))
                .partitions("clicks", partitions)
                .inMemoryStores()
                .build()) {
            long sent = System.currentTimeMillis();
            for (Click c : clicks.feedOrder()) {
                driver.pipe("clicks", c.visitor(), c, sent++);
            }
            List<TestRecord<Windowed<String>, Long>> out =
                    driver.allOutput("sessions", Serdes.windowed(Serdes.strings()), Serdes.longs());
            WindowResults<String, Long> results = new WindowResults<>(expected.sessions());
            out.forEach(r -> results.received(r.key(), r.value()));
            assertThat(results.passed()).as(results.summary()).isTrue();
            assertThat(results.retracted()).containsExactlyElementsOf(expected.retracted());

            List<String> aPanes = out.stream()
                    .filter(r -> r.key().key().equals("A"))
                    .map(r -> r.headers().lastString("weir.pane") + " "
                            + r.key().start() + "-" + r.key().end())
                    .toList();
            Windowed<String> first = expected.retracted().get(0);
            Windowed<String> second = expected.retracted().get(1);
            Windowed<String> merged = expected.merged();
            assertThat(aPanes)
                    .containsSubsequence(
                            "final " + first.start() + "-" + first.end(),
                            "final " + second.start() + "-" + second.end(),
                            "retract " + first.start() + "-" + first.end(),
                            "retract " + second.start() + "-" + second.end(),
                            "late " + merged.start() + "-" + merged.end());
        }
    }

    private static Windowed<String> session(String visitor, int fromSecond, int toSecond) {
        return new Windowed<>(visitor, BASE + fromSecond * 1000L, BASE + toSecond * 1000L);
    }
}
