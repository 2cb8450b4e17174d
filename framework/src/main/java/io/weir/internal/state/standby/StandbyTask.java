package io.weir.internal.state.standby;

import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import io.weir.common.internal.Deadline;
import io.weir.internal.metrics.WeirMeter;
import io.weir.internal.state.TaskStore;
import io.weir.internal.state.TaskStores;
import io.weir.processor.TaskId;
import io.weir.state.changelog.RestoreSession;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.Set;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.kafka.common.TopicPartition;

/**
 * A standby (or warm-up) copy of one task on this instance: its persistent logged stores,
 * following their changelogs in the {@link Standbys}' session, and the meters that say
 * how far behind they are.
 *
 * <p>Threads: the state thread only; the gauges are read by any thread.
 */
final class StandbyTask {

    final TaskId id;
    int threadIndex;
    boolean warmup;
    boolean promotionRequested;
    /** A warm-up: since when it has been within {@code acceptable.recovery.lag} (0: it is not). */
    long caughtUpSinceNanos;
    /** A warm-up: its lag at the last update, for the log line that asks to move it. */
    long lastLag;

    /** When it may try again to open its stores (they were still locked by the active task here). */
    Deadline openRetry = Deadline.after(Duration.ZERO);
    /** Since when its task is marked active here while this copy is open (0: it is not). */
    long activeSinceNanos;

    /** How long an open standby of a task marked active waits for the release that hands it over. */
    static final Duration HAND_OVER_WAIT = Duration.ofSeconds(5);

    TaskStores stores;
    Set<TopicPartition> changelogs = Set.of();

    private final MeterRegistry registry;
    private final Tags tags;
    private final Map<TopicPartition, Lag> lags = new java.util.concurrent.ConcurrentHashMap<>();
    /** Every changelog's lag has been known once: queries may read this copy within a bound. */
    private volatile boolean lagKnown;

    private final List<Meter> meters = new ArrayList<>();

    StandbyTask(TaskId id, MeterRegistry registry, Tags tags) {
        this.id = id;
        this.registry = registry;
        this.tags = tags.and("task", id.toString());
    }

    /** The stores opened: one lag (and its meters) per changelog. */
    void bind(Set<TopicPartition> changelogs, TaskStores stores) {
        this.changelogs = Set.copyOf(changelogs);
        for (TaskStore store : stores.all()) {
            Lag lag = new Lag();
            lags.put(store.changelog(), lag);
            Tags t = tags.and("store", store.name());
            meters.add(WeirMeter.STANDBY_LAG_RECORDS
                    .gauge(lag.records, AtomicLong::get)
                    .tags(t)
                    .strongReference(true)
                    .register(registry));
            meters.add(WeirMeter.STANDBY_LAG_SECONDS
                    .gauge(lag, l -> l.seconds(System.nanoTime()))
                    .tags(t)
                    .strongReference(true)
                    .register(registry));
        }
    }

    /**
     * Updates the lags from the session's last fetch; returns their sum, or -1 while a changelog's
     * lag is not known yet (nothing fetched).
     */
    long updateLag(RestoreSession session, long nowNanos) {
        long total = 0;
        boolean known = true;
        for (TaskStore store : stores.all()) {
            Lag l = lags.get(store.changelog());
            OptionalLong end = session.end(store.changelog());
            if (l == null || end.isEmpty()) {
                known = false;
                continue;
            }
            // From what the store has applied, not from the consumer's position: the assignor
            // compares the changelog's end with the applied offsets this instance reports, so a
            // warm-up counts as caught up here exactly when it will there.
            long lag = Math.max(
                    0, end.getAsLong() - store.committed().changelogOffset().orElse(0L));
            l.records.set(lag);
            if (lag == 0) {
                l.caughtUpNanos = nowNanos;
            }
            total += lag;
        }
        if (known) {
            lagKnown = true;
        }
        return known ? total : -1;
    }

    /** The lags' sum as last updated, or -1 before every changelog's lag was known; any thread. */
    long lagRecords() {
        return lagKnown ? lags.values().stream().mapToLong(l -> l.records.get()).sum() : -1;
    }

    /** The longest time since a store of this copy was caught up, in milliseconds; any thread. */
    long lagMillis() {
        long now = System.nanoTime();
        return (long)
                (lags.values().stream().mapToDouble(l -> l.seconds(now)).max().orElse(0) * 1000);
    }

    String describeOffsets() {
        StringBuilder b = new StringBuilder();
        for (TaskStore s : stores.all()) {
            b.append(b.length() == 0 ? "" : ", ")
                    .append(s.changelog())
                    .append('@')
                    .append(
                            s.committed().changelogOffset().isPresent()
                                    ? s.committed().changelogOffset().getAsLong()
                                    : "start");
        }
        return b.toString();
    }

    void removeMeters() {
        // A copy opened again starts from what its stores hold: its lag is unknown until measured.
        lagKnown = false;
        meters.forEach(registry::remove);
        meters.clear();
        lags.clear();
    }

    private static final class Lag {
        final AtomicLong records = new AtomicLong();
        volatile long caughtUpNanos = System.nanoTime();

        double seconds(long nowNanos) {
            return records.get() == 0 ? 0 : (nowNanos - caughtUpNanos) / 1e9;
        }
    }

    /**
     * True while this open standby's task becomes active here ({@code active}: the latest
     * assignment says so, or a stream thread marked it): the stream thread opening the task asks
     * for its stores ({@link Standbys#release}), and a copy closed meanwhile would make it reopen
     * them. Bounded by {@link #HAND_OVER_WAIT}, in case no release comes.
     */
    boolean awaitsRelease(boolean active, long now) {
        if (stores == null || !active) {
            activeSinceNanos = 0;
            return false;
        }
        if (activeSinceNanos == 0) {
            activeSinceNanos = now;
        }
        return now - activeSinceNanos < HAND_OVER_WAIT.toNanos();
    }
}
