package io.weir.benchmarks.ysb;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class YsbWindowsTest {

    private static final long WINDOW = 10_000;
    /** Windows starting at 0 and 10,000 end at 10,000 and 20,000. */
    private static final Map<String, Long> EXPECTED = Map.of("a@0", 3L, "a@10000", 2L);

    private static YsbOutput.Seen early(long count, long at) {
        return new YsbOutput.Seen(count, at, false);
    }

    private static YsbOutput.Seen fin(long count, long at) {
        return new YsbOutput.Seen(count, at, true);
    }

    @Test
    void latencyIsWhenTheExactCountFirstBecameVisibleAndTheFinalOneWhenItWasMarkedFinal() {
        Map<String, List<YsbOutput.Seen>> seen = Map.of(
                "a@0", List.of(early(1, 9_000), early(3, 10_050), fin(3, 10_200)),
                "a@10000", List.of(early(2, 20_100), fin(2, 20_400)));

        YsbWindows.Verdict v = YsbWindows.judge(EXPECTED, seen, true, WINDOW, 0, 20_000, 30_000);

        assertThat(v.passed()).isTrue();
        assertThat(v.windows()).isEqualTo(2);
        assertThat(v.p50()).isEqualTo(50);
        assertThat(v.max()).isEqualTo(100);
        assertThat(v.finalP99().getAsLong()).isEqualTo(400);
        assertThat(v.updatesPerWindow()).isEqualTo(2.5);
        assertThat(YsbWindows.complete(EXPECTED, seen, true)).isTrue();
    }

    @Test
    void onlyWindowsEndingInTheMeasuredTimeCountTowardsLatency() {
        Map<String, List<YsbOutput.Seen>> seen = Map.of(
                "a@0", List.of(early(3, 19_000)),
                "a@10000", List.of(early(2, 20_100)));

        YsbWindows.Verdict v = YsbWindows.judge(EXPECTED, seen, false, WINDOW, 10_000, 20_000, 30_000);

        assertThat(v.windows()).isEqualTo(1);
        assertThat(v.max()).isEqualTo(100);
        assertThat(v.finalP99()).isEmpty();
    }

    @Test
    void aWindowNeverCompleteCountsAtTheGiveUpTimeAndFailsTheCheck() {
        Map<String, List<YsbOutput.Seen>> seen =
                Map.of("a@0", List.of(early(3, 10_010)), "a@10000", List.of(early(1, 20_050)));

        YsbWindows.Verdict v = YsbWindows.judge(EXPECTED, seen, false, WINDOW, 0, 20_000, 25_000);

        assertThat(v.incomplete()).isEqualTo(1);
        assertThat(v.max()).isEqualTo(5_000);
        assertThat(v.passed()).isFalse();
        assertThat(YsbWindows.complete(EXPECTED, seen, false)).isFalse();
    }

    @Test
    void aSystemThatMarksFinalCountsIsIncompleteUntilItHasMarkedThem() {
        Map<String, List<YsbOutput.Seen>> seen =
                Map.of("a@0", List.of(early(3, 10_010)), "a@10000", List.of(fin(2, 20_050)));

        assertThat(YsbWindows.complete(EXPECTED, seen, true)).isFalse();
        assertThat(YsbWindows.complete(EXPECTED, seen, false)).isTrue();
    }

    @Test
    void overcountsRepeatedOrWrongFinalsAndStrayWindowsAreProblems() {
        Map<String, List<YsbOutput.Seen>> seen = Map.of(
                "a@0", List.of(fin(3, 10_010), fin(3, 10_020)),
                "a@10000", List.of(early(4, 20_050), fin(2, 20_060)),
                "b@0", List.of(fin(1, 10_000)));

        YsbWindows.Verdict v = YsbWindows.judge(EXPECTED, seen, true, WINDOW, 0, 20_000, 30_000);

        assertThat(v.passed()).isFalse();
        assertThat(v.problemCount()).isEqualTo(3);
        assertThat(v.problems())
                .anySatisfy(p -> assertThat(p).contains("a@0: final count written 2 times"))
                .anySatisfy(p -> assertThat(p).contains("a@10000: count 4 above the 2 views"))
                .anySatisfy(p -> assertThat(p).contains("b@0: counts for a window without views"));
    }

    @Test
    void aCountThatFallsBackAfterReachingTheViewsIsAProblem() {
        Map<String, List<YsbOutput.Seen>> seen =
                Map.of("a@0", List.of(early(3, 10_010), early(2, 10_020)), "a@10000", List.of(early(2, 20_060)));

        YsbWindows.Verdict v = YsbWindows.judge(EXPECTED, seen, false, WINDOW, 0, 20_000, 30_000);

        assertThat(v.problems()).containsExactly("a@0: last count 2 after 3");
    }
}
