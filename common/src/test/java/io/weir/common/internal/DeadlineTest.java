package io.weir.common.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

class DeadlineTest {

    private final AtomicLong now = new AtomicLong(Long.MAX_VALUE - 5_000); // wraps around: compared by subtraction

    @Test
    void expiresWhenItsTimeOutHasPassedAndSaysWhatIsLeft() {
        Deadline d = new Deadline(Duration.ofNanos(10_000), now::get);
        assertThat(d.expired()).isFalse();
        assertThat(d.remaining()).isEqualTo(Duration.ofNanos(10_000));
        now.addAndGet(9_999);
        assertThat(d.expired()).isFalse();
        assertThat(d.remaining()).isEqualTo(Duration.ofNanos(1));
        now.addAndGet(1);
        assertThat(d.expired()).isTrue();
        assertThat(d.remaining()).isZero();
        now.addAndGet(1_000_000);
        assertThat(d.remaining()).isZero();
        assertThat(d.timeout()).isEqualTo(Duration.ofNanos(10_000));
    }

    @Test
    void aZeroTimeOutHasExpiredAtOnce() {
        assertThat(new Deadline(Duration.ZERO, now::get).expired()).isTrue();
        assertThat(Deadline.after(Duration.ZERO).expired()).isTrue();
    }

    @Test
    void aTimeOutLongerThanTheClockCanCountNeverExpires() {
        Deadline d = new Deadline(Duration.ofDays(365L * 1_000_000), now::get);
        now.addAndGet(Long.MAX_VALUE / 4);
        assertThat(d.expired()).isFalse();
        assertThat(d.remaining()).isPositive();
    }

    @Test
    void refusesANegativeTimeOut() {
        assertThatThrownBy(() -> Deadline.after(Duration.ofMillis(-1)))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("negative");
    }

    @Test
    void formatsDurationsForMessages() {
        assertThat(Deadline.format(Duration.ofSeconds(30))).isEqualTo("30 s");
        assertThat(Deadline.format(Duration.ofMillis(1500))).isEqualTo("1500 ms");
        assertThat(Deadline.format(Duration.ZERO)).isEqualTo("0 ms");
        assertThat(Deadline.after(Duration.ofMinutes(1)).toString()).startsWith("Deadline[60 s, ");
    }
}
