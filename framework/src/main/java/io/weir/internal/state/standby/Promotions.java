package io.weir.internal.state.standby;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The rebalances warm-ups ask for. A warm-up is a standby the assignor placed where it wants to
 * move the task; once it is within {@code acceptable.recovery.lag}, the stream thread it was
 * assigned to asks for the rebalance that moves it here ({@link #take}). Every rebalance holds every
 * task of the group for a moment (two rounds: the old owners revoke, then the new ones get the
 * tasks), so warm-ups that catch up within {@link #BATCH_WAIT} of each other ask together, in one
 * rebalance rather than in one each. While warm-ups run, one asks every
 * {@code probing.rebalance.interval.ms} too, in case none ever gets there.
 *
 * <p>Threads: the state thread updates ({@link #assigned}, {@link #observe}, {@link #update});
 * stream threads {@link #take} their requests from any thread.
 */
final class Promotions {

    private static final Logger log = LoggerFactory.getLogger(Promotions.class);
    /** How long a caught-up warm-up waits for the instance's other warm-ups to catch up too. */
    static final Duration BATCH_WAIT = Duration.ofSeconds(2);

    private final long acceptableLag;
    private final long probingIntervalNanos;
    private final Map<Integer, String> requests = new ConcurrentHashMap<>();
    // ---- state thread only
    private long lastProbeNanos = System.nanoTime();

    /**
     * @param acceptableLag   {@code acceptable.recovery.lag}: the lag (in records) a warm-up is caught up at
     * @param probingInterval {@code probing.rebalance.interval.ms}
     */
    Promotions(long acceptableLag, Duration probingInterval) {
        this.acceptableLag = acceptableLag;
        this.probingIntervalNanos = probingInterval.toNanos();
    }

    /** A new assignment: the next probe is a full interval away. */
    void assigned(long nowNanos) {
        lastProbeNanos = nowNanos;
    }

    /** A warm-up's lag after its standby was updated ({@code lag} -1: not known yet). */
    void observe(StandbyTask s, long lag, long nowNanos) {
        if (!s.warmup || s.promotionRequested) {
            return;
        }
        boolean caughtUp = lag >= 0 && lag <= acceptableLag;
        s.caughtUpSinceNanos = !caughtUp ? 0 : s.caughtUpSinceNanos != 0 ? s.caughtUpSinceNanos : nowNanos;
        s.lastLag = lag;
    }

    /**
     * Asks for the rebalance that moves caught-up warm-ups here, once every warm-up of this instance
     * is caught up or {@link #BATCH_WAIT} after the first one was; and for a probing rebalance when
     * one is due while warm-ups run.
     *
     * @param standbys every standby of this instance, in task order
     */
    void update(Collection<StandbyTask> standbys, long nowNanos) {
        requestPromotions(standbys, nowNanos);
        boolean anyWarmup = standbys.stream().anyMatch(s -> s.warmup && s.stores != null);
        if (anyWarmup && nowNanos - lastProbeNanos >= probingIntervalNanos) {
            lastProbeNanos = nowNanos;
            StandbyTask first =
                    standbys.stream().filter(s -> s.warmup).findFirst().orElseThrow();
            requests.putIfAbsent(first.threadIndex, "probing the progress of warm-up tasks");
        }
    }

    private void requestPromotions(Collection<StandbyTask> standbys, long nowNanos) {
        List<StandbyTask> waiting = new ArrayList<>();
        boolean allCaughtUp = true;
        long firstCaughtUp = Long.MAX_VALUE;
        for (StandbyTask s : standbys) {
            if (!s.warmup || s.promotionRequested) {
                continue;
            }
            if (s.stores == null || s.caughtUpSinceNanos == 0) {
                allCaughtUp = false;
            } else {
                waiting.add(s);
                firstCaughtUp = Math.min(firstCaughtUp, s.caughtUpSinceNanos);
            }
        }
        if (waiting.isEmpty() || !allCaughtUp && nowNanos - firstCaughtUp < BATCH_WAIT.toNanos()) {
            return;
        }
        for (StandbyTask s : waiting) {
            s.promotionRequested = true;
            String reason = "warm-up of task " + s.id + " caught up (" + s.lastLag + " records behind)";
            requests.merge(s.threadIndex, reason, (a, b) -> a + ", " + b);
            log.info("{}; rebalancing to move it here", reason);
        }
    }

    /** Why stream thread {@code threadIndex} should rebalance now, or null; asking clears it. */
    String take(int threadIndex) {
        return requests.remove(threadIndex);
    }
}
