package io.weir.samples.common;

import static org.assertj.core.api.Assertions.assertThat;

import io.weir.samples.common.WindowResults.Outcome;
import io.weir.state.Windowed;
import java.util.Map;
import org.junit.jupiter.api.Test;

class WindowResultsTest {

    private static final Windowed<String> FIRST = new Windowed<>("A", 0, 200);
    private static final Windowed<String> SECOND = new Windowed<>("A", 700, 900);
    private static final Windowed<String> MERGED = new Windowed<>("A", 0, 900);

    @Test
    void passesWhenTheExpectedResultsStandEachEmittedOnce() {
        WindowResults<String, Long> r = new WindowResults<>(Map.of(FIRST, 5L, SECOND, 4L));
        assertThat(r.received(FIRST, 5L)).isEqualTo(Outcome.EXPECTED);
        assertThat(r.complete()).isFalse();
        assertThat(r.received(SECOND, 4L)).isEqualTo(Outcome.EXPECTED);
        assertThat(r.passed()).isTrue();
        assertThat(r.summary()).endsWith("PASSED");
    }

    @Test
    void retractedResultsMayComeOnTheWayToTheExpectedOnes() {
        WindowResults<String, Long> r = new WindowResults<>(Map.of(MERGED, 10L));
        assertThat(r.received(FIRST, 5L)).isEqualTo(Outcome.UNEXPECTED);
        assertThat(r.received(SECOND, 4L)).isEqualTo(Outcome.UNEXPECTED);
        assertThat(r.received(FIRST, null)).isEqualTo(Outcome.RETRACTION);
        assertThat(r.received(SECOND, null)).isEqualTo(Outcome.RETRACTION);
        assertThat(r.received(MERGED, 10L)).isEqualTo(Outcome.EXPECTED);
        assertThat(r.retracted()).containsExactly(FIRST, SECOND);
        assertThat(r.passed()).isTrue();
    }

    @Test
    void aResultEmittedTwiceFailsTheCheck() {
        WindowResults<String, Long> r = new WindowResults<>(Map.of(FIRST, 5L));
        r.received(FIRST, 5L);
        assertThat(r.received(FIRST, 5L)).isEqualTo(Outcome.REPEATED);
        assertThat(r.complete()).isTrue();
        assertThat(r.passed()).isFalse();
    }

    @Test
    void aRetractionOfNothingAWrongValueOrAnExtraWindowFailsTheCheck() {
        WindowResults<String, Long> r = new WindowResults<>(Map.of(FIRST, 5L));
        assertThat(r.received(SECOND, null)).isEqualTo(Outcome.WRONG_RETRACTION);
        r.received(FIRST, 5L);
        assertThat(r.passed()).isFalse();

        WindowResults<String, Long> wrong = new WindowResults<>(Map.of(FIRST, 5L));
        assertThat(wrong.received(FIRST, 6L)).isEqualTo(Outcome.UNEXPECTED);
        assertThat(wrong.missing()).isEqualTo(1);
        assertThat(wrong.passed()).isFalse();

        WindowResults<String, Long> extra = new WindowResults<>(Map.of(FIRST, 5L));
        extra.received(FIRST, 5L);
        extra.received(SECOND, 4L);
        assertThat(extra.unexpected()).isEqualTo(1);
        assertThat(extra.passed()).isFalse();
    }
}
