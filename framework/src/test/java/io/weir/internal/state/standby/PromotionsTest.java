package io.weir.internal.state.standby;

import static org.assertj.core.api.Assertions.assertThat;

import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.weir.internal.state.TaskStores;
import io.weir.processor.TaskId;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

class PromotionsTest {

    private static final long ACCEPTABLE_LAG = 10;
    private static final long SECOND = Duration.ofSeconds(1).toNanos();

    private final Promotions promotions = new Promotions(ACCEPTABLE_LAG, Duration.ofMinutes(10));
    private final long start = System.nanoTime();

    private static StandbyTask warmup(int partition, int threadIndex) {
        StandbyTask s = new StandbyTask(new TaskId(0, partition), new SimpleMeterRegistry(), Tags.empty());
        s.warmup = true;
        s.threadIndex = threadIndex;
        s.stores = TaskStores.none(); // open
        return s;
    }

    @Test
    void aWarmUpWithinTheAcceptableLagAsksItsThreadToRebalanceOnceAllWarmUpsAreCaughtUp() {
        StandbyTask a = warmup(0, 0);
        StandbyTask b = warmup(1, 1);

        promotions.observe(a, 3, start);
        promotions.observe(b, 50, start);
        promotions.update(List.of(a, b), start);
        assertThat(promotions.take(0)).isNull(); // b is not caught up, and the batch wait is not over

        promotions.observe(b, ACCEPTABLE_LAG, start + SECOND);
        promotions.update(List.of(a, b), start + SECOND);

        assertThat(promotions.take(0)).isEqualTo("warm-up of task 0_0 caught up (3 records behind)");
        assertThat(promotions.take(1)).isEqualTo("warm-up of task 0_1 caught up (10 records behind)");
        assertThat(promotions.take(0)).isNull(); // taking clears it
        assertThat(a.promotionRequested).isTrue();
    }

    @Test
    void aCaughtUpWarmUpWaitsForTheOthersOnlyForTheBatchWait() {
        StandbyTask a = warmup(0, 0);
        StandbyTask b = warmup(1, 0);
        promotions.observe(a, 0, start);
        promotions.observe(b, -1, start); // nothing fetched yet: not caught up

        promotions.update(List.of(a, b), start + Promotions.BATCH_WAIT.toNanos() - 1);
        assertThat(promotions.take(0)).isNull();

        promotions.update(List.of(a, b), start + Promotions.BATCH_WAIT.toNanos());
        assertThat(promotions.take(0)).isEqualTo("warm-up of task 0_0 caught up (0 records behind)");
        assertThat(b.promotionRequested).isFalse();
    }

    @Test
    void warmUpsOfOneThreadThatCatchUpTogetherAskInOneRequest() {
        StandbyTask a = warmup(0, 2);
        StandbyTask b = warmup(1, 2);
        promotions.observe(a, 1, start);
        promotions.observe(b, 2, start);

        promotions.update(List.of(a, b), start);

        assertThat(promotions.take(2))
                .isEqualTo("warm-up of task 0_0 caught up (1 records behind), "
                        + "warm-up of task 0_1 caught up (2 records behind)");
    }

    @Test
    void aWarmUpFallingBehindAgainStartsItsBatchWaitOver() {
        StandbyTask a = warmup(0, 0);
        StandbyTask b = warmup(1, 0);
        promotions.observe(b, 99, start);
        promotions.observe(a, 0, start);
        promotions.observe(a, 99, start + SECOND);
        promotions.observe(a, 0, start + 2 * SECOND);

        promotions.update(List.of(a, b), start + Promotions.BATCH_WAIT.toNanos());

        assertThat(promotions.take(0)).isNull();
        assertThat(a.caughtUpSinceNanos).isEqualTo(start + 2 * SECOND);
    }

    @Test
    void standbysThatAreNotWarmUpsNeverAsk() {
        StandbyTask s = warmup(0, 0);
        s.warmup = false;
        promotions.observe(s, 0, start);

        promotions.update(List.of(s), start + Duration.ofHours(1).toNanos());

        assertThat(promotions.take(0)).isNull();
        assertThat(s.caughtUpSinceNanos).isZero();
    }

    @Test
    void whileWarmUpsRunTheFirstOnesThreadProbesEveryIntervalFromTheLastAssignment() {
        Promotions probing = new Promotions(ACCEPTABLE_LAG, Duration.ofSeconds(30));
        StandbyTask a = warmup(0, 3);
        StandbyTask b = warmup(1, 4);
        probing.observe(a, 1_000, start);
        probing.observe(b, 1_000, start);
        probing.assigned(start);

        probing.update(List.of(a, b), start + 29 * SECOND);
        assertThat(probing.take(3)).isNull();

        probing.update(List.of(a, b), start + 30 * SECOND);
        assertThat(probing.take(3)).isEqualTo("probing the progress of warm-up tasks");
        assertThat(probing.take(4)).isNull();

        probing.update(List.of(a, b), start + 31 * SECOND); // the next probe is an interval later
        assertThat(probing.take(3)).isNull();
    }

    @Test
    void warmUpsNotOpenYetDoNotProbe() {
        Promotions probing = new Promotions(ACCEPTABLE_LAG, Duration.ofSeconds(30));
        StandbyTask a = warmup(0, 0);
        a.stores = null;
        probing.assigned(start);

        probing.update(List.of(a), start + Duration.ofHours(1).toNanos());

        assertThat(probing.take(0)).isNull();
    }
}
