package io.weir.samples.common;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.weir.samples.common.RunningTotals.Outcome;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

class RunningTotalsTest {

    private final RunningTotals<String> totals = new RunningTotals<>();

    /** The worked example's input: a's running sums are 2 and 4, b's 2, c's 1. */
    @BeforeEach
    void feedTheSeedExample() {
        totals.fed("a", 2);
        totals.fed("b", 2);
        totals.fed("a", 2);
        totals.fed("c", 1);
    }

    @Test
    void passesWhenEveryKeyEndsAtItsTotalThroughTrueRunningTotals() {
        assertThat(totals.received("a", 2L)).isEqualTo(Outcome.OK);
        assertThat(totals.received("b", 2L)).isEqualTo(Outcome.OK);
        assertThat(totals.allFinal()).isFalse();
        assertThat(totals.received("a", 4L)).isEqualTo(Outcome.OK);
        assertThat(totals.received("c", 1L)).isEqualTo(Outcome.OK);

        assertThat(totals.passed()).isTrue();
        assertThat(totals.finals())
                .containsExactly(
                        java.util.Map.entry("a", 4L), java.util.Map.entry("b", 2L), java.util.Map.entry("c", 1L));
        assertThat(totals.updates("a")).isEqualTo(2);
        assertThat(totals.summary())
                .isEqualTo("4 totals read back (read_committed) for 3 keys; 0 not a true running"
                        + " total, 0 repeated, 0 keys not at their final total: exactly-once check PASSED");
    }

    @Test
    void aSkippedIntermediateTotalIsFine() {
        totals.received("a", 4L);
        totals.received("b", 2L);
        totals.received("c", 1L);
        assertThat(totals.passed()).isTrue();
    }

    @Test
    void aTotalThatNeverWasFails() {
        totals.received("a", 2L);
        assertThat(totals.received("a", 6L)).as("a counted twice").isEqualTo(Outcome.WRONG);
        assertThat(totals.received("a", 3L)).isEqualTo(Outcome.WRONG);
        assertThat(totals.received("z", 1L)).as("a key never fed").isEqualTo(Outcome.WRONG);
        assertThat(totals.received("b", null)).as("a tombstone").isEqualTo(Outcome.WRONG);
        assertThat(totals.wrong()).isEqualTo(4);
        assertThat(totals.passed()).isFalse();
    }

    @Test
    void aRepeatedOrOlderTotalFails() {
        totals.received("a", 2L);
        assertThat(totals.received("a", 2L)).isEqualTo(Outcome.REPEATED);
        totals.received("a", 4L);
        assertThat(totals.received("a", 2L)).isEqualTo(Outcome.REPEATED);
        totals.received("a", 4L);
        totals.received("b", 2L);
        totals.received("c", 1L);

        assertThat(totals.allFinal()).isTrue();
        assertThat(totals.repeated()).isEqualTo(3);
        assertThat(totals.passed()).isFalse();
        assertThat(totals.summary()).contains("3 repeated").endsWith("FAILED");
    }

    @Test
    void theLastValueReadMustBeTheFinalTotal() {
        totals.received("a", 4L);
        totals.received("b", 2L);
        totals.received("c", 1L);
        totals.received("a", 2L); // an older sum after the final one

        assertThat(totals.lastRead("a")).isEqualTo(2L);
        assertThat(totals.missing()).isEqualTo(1);
        assertThat(totals.passed()).isFalse();
    }

    @Test
    void aKeyWithNoTotalReadIsMissing() {
        totals.received("a", 4L);
        totals.received("b", 2L);
        assertThat(totals.missing()).isEqualTo(1);
        assertThat(totals.lastRead("c")).isNull();
        assertThat(totals.summary()).contains("1 keys not at their final total").endsWith("FAILED");
    }

    @Test
    void amountsMustBePositive() {
        assertThatThrownBy(() -> totals.fed("a", 0)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> totals.fed("a", -1)).isInstanceOf(IllegalArgumentException.class);
    }
}
