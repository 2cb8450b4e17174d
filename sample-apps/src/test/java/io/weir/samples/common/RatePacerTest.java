package io.weir.samples.common;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

class RatePacerTest {

    private static final long MS = 1_000_000L;
    private final AtomicLong clock = new AtomicLong(1_000 * MS);

    @Test
    void spreadsSendsEvenlyOverTheSecond() {
        RatePacer pacer = new RatePacer(50, clock::get);
        assertThat(pacer.due()).as("the first send is due at once").isEqualTo(1);
        assertThat(pacer.due()).isZero();
        assertThat(pacer.nanosUntilNext()).isEqualTo(20 * MS);
        clock.addAndGet(20 * MS);
        assertThat(pacer.due()).isEqualTo(1);
        clock.addAndGet(50 * MS);
        assertThat(pacer.due()).as("two more slots passed (40 and 60 ms)").isEqualTo(2);
        assertThat(pacer.nanosUntilNext()).isEqualTo(10 * MS);
    }

    @Test
    void sendsTheRateOverASecondOfPolling() {
        RatePacer pacer = new RatePacer(50, clock::get);
        int sent = 0;
        for (int ms = 0; ms < 1000; ms++) {
            sent += pacer.due();
            clock.addAndGet(MS);
        }
        assertThat(sent).isEqualTo(50);
    }

    @Test
    void doesNotBurstAfterFallingBehindBySeconds() {
        RatePacer pacer = new RatePacer(10, clock::get);
        pacer.due();
        clock.addAndGet(5_000 * MS);
        assertThat(pacer.due()).as("the missed slots are dropped").isEqualTo(1);
        assertThat(pacer.nanosUntilNext()).isEqualTo(100 * MS);
    }

    @Test
    void catchesUpWithinASecond() {
        RatePacer pacer = new RatePacer(10, clock::get);
        pacer.due();
        clock.addAndGet(550 * MS);
        assertThat(pacer.due()).isEqualTo(5);
    }

    @Test
    void rejectsARateBelowOne() {
        assertThatThrownBy(() -> new RatePacer(0, clock::get))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("at least 1");
    }
}
