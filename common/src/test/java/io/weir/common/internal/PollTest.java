package io.weir.common.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

class PollTest {

    private static final Duration INTERVAL = Duration.ofMillis(5);
    private static final Duration LONG = Duration.ofSeconds(30);

    @Test
    void returnsAsSoonAsTheConditionHolds() throws Exception {
        AtomicInteger tries = new AtomicInteger();
        assertThat(Poll.until(() -> tries.incrementAndGet() == 3, LONG, INTERVAL))
                .isTrue();
        assertThat(tries).hasValue(3);
    }

    @Test
    void returnsFalseOnceTheTimeOutPassedHavingTriedOnTheDeadline() throws Exception {
        AtomicInteger tries = new AtomicInteger();
        long start = System.nanoTime();
        assertThat(Poll.until(() -> tries.incrementAndGet() < 0, Duration.ofMillis(100), Duration.ofMillis(30)))
                .isFalse();
        assertThat(Duration.ofNanos(System.nanoTime() - start)).isGreaterThanOrEqualTo(Duration.ofMillis(100));
        assertThat(tries.get()).isBetween(2, 6); // at 0, 30, 60, 90 and 100 ms, give or take the scheduler
    }

    @Test
    void triesOnceWithAZeroTimeOut() throws Exception {
        AtomicInteger tries = new AtomicInteger();
        assertThat(Poll.until(() -> tries.incrementAndGet() < 0, Duration.ZERO, INTERVAL))
                .isFalse();
        assertThat(tries).hasValue(1);
        assertThat(Poll.until(() -> true, Duration.ZERO, INTERVAL)).isTrue();
    }

    @Test
    void untilPresentReturnsTheFirstValueOrEmpty() throws Exception {
        AtomicInteger tries = new AtomicInteger();
        assertThat(Poll.untilPresent(
                        () -> tries.incrementAndGet() == 2 ? Optional.of("found") : Optional.empty(), LONG, INTERVAL))
                .contains("found");
        assertThat(Poll.untilPresent(Optional::empty, Duration.ofMillis(20), INTERVAL))
                .isEmpty();
    }

    @Test
    void whatATryThrowsEndsTheWait() {
        AtomicInteger tries = new AtomicInteger();
        assertThatThrownBy(() -> Poll.until(
                        () -> {
                            tries.incrementAndGet();
                            throw new IllegalStateException("broken");
                        },
                        LONG,
                        INTERVAL))
                .isInstanceOf(IllegalStateException.class)
                .hasMessage("broken");
        assertThat(tries).hasValue(1);
    }

    @Test
    void anInterruptedWaitThrowsInterruptedException() {
        Thread.currentThread().interrupt();
        try {
            assertThatThrownBy(() -> Poll.until(() -> false, LONG, INTERVAL)).isInstanceOf(InterruptedException.class);
        } finally {
            Thread.interrupted();
        }
    }

    @Test
    void retryingReturnsOnceTheAttemptStopsFailingRetriably() throws Exception {
        AtomicInteger tries = new AtomicInteger();
        AtomicInteger asked = new AtomicInteger();
        String result = Poll.retrying(
                () -> {
                    if (tries.incrementAndGet() < 3) {
                        throw new IllegalStateException("locked");
                    }
                    return "opened";
                },
                e -> asked.incrementAndGet() > 0 && e.getMessage().equals("locked"),
                LONG,
                INTERVAL);
        assertThat(result).isEqualTo("opened");
        assertThat(tries).hasValue(3);
        assertThat(asked).hasValue(2);
    }

    @Test
    void retryingRethrowsTheLastRetriableFailureAtTheDeadlineWithoutAskingAboutIt() {
        AtomicInteger tries = new AtomicInteger();
        AtomicInteger asked = new AtomicInteger();
        assertThatThrownBy(() -> Poll.retrying(
                        () -> {
                            throw new IllegalStateException("locked " + tries.incrementAndGet());
                        },
                        e -> asked.incrementAndGet() > 0,
                        Duration.ofMillis(50),
                        INTERVAL))
                .isInstanceOf(IllegalStateException.class)
                .satisfies(e -> assertThat(e.getMessage()).isEqualTo("locked " + tries.get()));
        assertThat(asked.get()).isEqualTo(tries.get() - 1);
    }

    @Test
    void retryingRethrowsOtherFailuresAtOnce() {
        AtomicInteger tries = new AtomicInteger();
        assertThatThrownBy(() -> Poll.retrying(
                        () -> {
                            tries.incrementAndGet();
                            throw new UnsupportedOperationException("fatal");
                        },
                        e -> e instanceof IllegalStateException,
                        LONG,
                        INTERVAL))
                .isInstanceOf(UnsupportedOperationException.class);
        assertThat(tries).hasValue(1);
    }

    @Test
    void untilPresentWithABackOffReturnsTheFirstValueOrEmpty() throws Exception {
        AtomicInteger tries = new AtomicInteger();
        assertThat(Poll.untilPresent(
                        () -> tries.incrementAndGet() == 4 ? Optional.of("found") : Optional.empty(),
                        LONG,
                        Duration.ofMillis(1),
                        Duration.ofMillis(4)))
                .contains("found");
        assertThat(tries).hasValue(4);
        assertThat(Poll.untilPresent(Optional::empty, Duration.ofMillis(20), INTERVAL, INTERVAL.multipliedBy(4)))
                .isEmpty();
        assertThatThrownBy(() -> Poll.untilPresent(Optional::empty, LONG, INTERVAL, Duration.ofMillis(1)))
                .isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void refusesAnIntervalThatIsNotPositive() {
        assertThatThrownBy(() -> Poll.until(() -> false, LONG, Duration.ZERO))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("interval");
    }
}
