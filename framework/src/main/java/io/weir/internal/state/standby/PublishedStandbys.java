package io.weir.internal.state.standby;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import io.weir.internal.metrics.WeirMeter;
import io.weir.processor.TaskId;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * What the other threads see of the standbys, which the state thread owns: the set of standby
 * and warm-up tasks as last published, their stores' offset sums (for the assignor), and the
 * meters {@code weir.standby.tasks} and {@code weir.warmup.tasks}.
 *
 * <p>Threads: {@link #publish} and {@link #offset} by the state thread; the queries by any thread.
 */
final class PublishedStandbys {

    private final Map<TaskId, Long> offsets = new ConcurrentHashMap<>();
    private final AtomicInteger standbyCount = new AtomicInteger();
    private final AtomicInteger warmupCount = new AtomicInteger();
    /** The standbys (true: a warm-up) as the state thread last reconciled them. */
    private volatile Map<TaskId, Boolean> view = Map.of();

    PublishedStandbys(MeterRegistry registry, Tags tags) {
        WeirMeter.STANDBY_TASKS
                .gauge(standbyCount, AtomicInteger::get)
                .tags(tags)
                .register(registry);
        WeirMeter.WARMUP_TASKS.gauge(warmupCount, AtomicInteger::get).tags(tags).register(registry);
    }

    /** Makes the standby set visible to other threads (meters, {@code /info}). */
    void publish(Collection<StandbyTask> standbys) {
        standbyCount.set(standbys.size());
        warmupCount.set((int) standbys.stream().filter(s -> s.warmup).count());
        Map<TaskId, Boolean> v = new TreeMap<>();
        standbys.forEach(s -> v.put(s.id, s.warmup));
        view = Collections.unmodifiableMap(v);
    }

    /** A standby's stores' offset sum; null: it has none any more. */
    void offset(TaskId id, Long sum) {
        if (sum == null) {
            offsets.remove(id);
        } else {
            offsets.put(id, sum);
        }
    }

    /** True if one of {@code ids} has a standby here, as last published. */
    boolean holdsAny(Collection<TaskId> ids) {
        Map<TaskId, Boolean> v = view;
        return ids.stream().anyMatch(v::containsKey);
    }

    /** The standbys' stores' offset sums. */
    Map<TaskId, Long> offsetSums() {
        return Map.copyOf(offsets);
    }

    /** The standby tasks ({@code warmupsOnly}: the warm-ups among them), sorted. */
    List<String> ids(boolean warmupsOnly) {
        List<String> ids = new ArrayList<>();
        view.forEach((id, warmup) -> {
            if (warmup || !warmupsOnly) {
                ids.add(id.toString());
            }
        });
        return ids;
    }
}
