package io.weir.internal.restore;

import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import io.weir.config.WeirConfig;
import io.weir.errors.StoreLockedException;
import io.weir.internal.assign.MemberHooks.MemberAssignment;
import io.weir.internal.state.TaskStores;
import io.weir.internal.topology.StoreSpec;
import io.weir.internal.topology.TopologyModel;
import io.weir.processor.TaskId;
import io.weir.state.changelog.RestoreListener;
import io.weir.state.changelog.RestoreSession;
import io.weir.internal.state.LocalStores;
import io.weir.state.internal.BytesStore;
import io.weir.state.rocksdb.RocksDbResources;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BooleanSupplier;
import org.apache.kafka.common.TopicPartition;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The standby and warm-up tasks of this instance, following their changelogs in one session.
 *
 * <p>A standby task opens only its persistent, logged stores (in-memory stores are rebuilt by
 * whoever becomes active), in the same directories an active task of this instance would use, so
 * when the task becomes active here its stores are where its standby left them and only the tail
 * is restored. A store still held by an active task of this instance is retried, not waited for.
 * The stores are flushed every {@code state.flush.interval.ms}; their offsets are reported to the
 * assignor ({@link #offsetSums}). A warm-up is a standby placed here to take a task over once caught
 * up: see {@link Promotions}. A failure closes every standby; they start over {@link #FAILURE_RETRY} later.
 *
 * <p>Meters (tagged task and store): {@code weir.standby.lag.records} and
 * {@code weir.standby.lag.seconds} (see {@link StandbyTask}); {@code weir.standby.tasks} and
 * {@code weir.warmup.tasks}.
 *
 * <p>Threads: {@link #holdsAny}, {@link #offsetSums}, {@link #ids} and {@link #takeRebalanceRequest}
 * are for any thread; everything else runs on the state thread ({@link #bind} before it starts).
 */
final class Standbys {

    private static final Logger log = LoggerFactory.getLogger(StateThread.class);
    private static final Duration LOCK_RETRY = Duration.ofMillis(200);
    static final Duration FAILURE_RETRY = Duration.ofSeconds(5);

    private final WeirConfig config;
    private final TopologyModel model;
    private final Path instanceDir;
    private final RocksDbResources rocksDb;
    private final MeterRegistry registry;
    private final Tags tags;
    private final StateConsumers consumers;
    private final Promotions promotions;
    private final Map<TaskId, Long> offsets = new ConcurrentHashMap<>();
    private final AtomicInteger standbyCount = new AtomicInteger();
    private final AtomicInteger warmupCount = new AtomicInteger();
    /** The standbys (true: a warm-up) as the state thread last reconciled them, for other threads. */
    private volatile Map<TaskId, Boolean> view = Map.of();

    // ---- state thread only ----------------------------------------------------------------------
    private InstanceTaskRegistry tasks;
    private final Map<Integer, MemberAssignment> assigned = new TreeMap<>();
    private final Map<TaskId, StandbyTask> standbys = new TreeMap<>();
    /** Created with the first standby, and again after a failure closed it. */
    private RestoreSession tails;
    private long lastFlushNanos = System.nanoTime();
    private final LocalStores localStores;
    /** Until when standbys wait after a failure; now at first (nanoTime may be negative: compare differences). */
    private long failedUntil = System.nanoTime();

    Standbys(WeirConfig config, TopologyModel model, Path instanceDir, RocksDbResources rocksDb,
             MeterRegistry registry, Tags tags, StateConsumers consumers, LocalStores localStores) {
        this.localStores = localStores;
        this.config = config;
        this.model = model;
        this.instanceDir = instanceDir;
        this.rocksDb = rocksDb;
        this.registry = registry;
        this.tags = tags;
        this.consumers = consumers;
        this.promotions = new Promotions(config.acceptableRecoveryLag(), config.probingRebalanceInterval());
        Gauge.builder("weir.standby.tasks", standbyCount, AtomicInteger::get)
                .description("standby tasks (warm-ups included) this instance keeps").tags(tags).register(registry);
        Gauge.builder("weir.warmup.tasks", warmupCount, AtomicInteger::get)
                .description("standby tasks placed here to take over a task once caught up").tags(tags)
                .register(registry);
    }

    /** The tasks active on this instance, whose standbys never open; before the state thread starts. */
    void bind(InstanceTaskRegistry tasks) {
        this.tasks = tasks;
    }

    // ---- any thread -----------------------------------------------------------------------------

    /** True if one of {@code ids} has a standby here, as the state thread last published. */
    boolean holdsAny(Collection<TaskId> ids) {
        Map<TaskId, Boolean> v = view;
        return ids.stream().anyMatch(v::containsKey);
    }

    /** The standbys' stores' offset sums, for the assignor. */
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

    /** Why stream thread {@code threadIndex} should rebalance now, or null; asking clears it. */
    String takeRebalanceRequest(int threadIndex) {
        return promotions.take(threadIndex);
    }

    // ---- state thread ---------------------------------------------------------------------------

    /** A stream thread's standby and warm-up tasks from the latest assignment. */
    void assign(int threadIndex, MemberAssignment assignment) {
        assigned.put(threadIndex, assignment);
        promotions.assigned(System.nanoTime());
        reconcile();
    }

    /** Opens the standbys the assignment wants and closes those it no longer wants. */
    void reconcile() {
        Map<TaskId, Integer> wanted = new TreeMap<>();
        Set<TaskId> warmups = new HashSet<>();
        assigned.forEach((threadIndex, a) -> {
            for (TaskId id : a.standbys()) {
                if (!tasks.isActive(id) && !specs(id).isEmpty()) {
                    wanted.putIfAbsent(id, threadIndex);
                }
            }
            warmups.addAll(a.warmups());
        });
        for (StandbyTask s : new ArrayList<>(standbys.values())) {
            if (!wanted.containsKey(s.id)) {
                standbys.remove(s.id);
                closeStandby(s, null);
            }
        }
        wanted.forEach((id, threadIndex) -> {
            StandbyTask s = standbys.computeIfAbsent(id, k -> new StandbyTask(k, registry, tags));
            s.threadIndex = threadIndex;
            s.warmup = warmups.contains(id);
        });
        publish();
    }

    /** Closes the standbys of {@code ids}: the tasks become active here. */
    void release(Set<TaskId> ids) {
        for (TaskId id : ids) {
            StandbyTask standby = standbys.remove(id);
            if (standby != null) {
                closeStandby(standby, "it becomes active here");
            }
        }
    }

    /** True if {@code id} has a standby here (open or waiting to open). */
    boolean has(TaskId id) {
        return standbys.containsKey(id);
    }

    /** True if there are standbys to update, and they are not waiting out a failure. */
    boolean canStep() {
        return tails != null && !tails.isEmpty() && System.nanoTime() - failedUntil >= 0;
    }

    /** Updates the standbys for one slice of the state thread's time (or until {@code yield}), then maintains them. */
    void step(BooleanSupplier yield) {
        tails.step(StateThread.STEP, yield);
        maintain();
    }

    /** Opens standbys whose stores are free, publishes lags and offsets, flushes, asks for rebalances. */
    void maintain() {
        if (standbys.isEmpty() || System.nanoTime() - failedUntil < 0) {
            return;
        }
        long now = System.nanoTime();
        for (StandbyTask s : new ArrayList<>(standbys.values())) {
            if (tasks.isActive(s.id)) {
                // Became active here while its standby was being placed: the active's stores win.
                standbys.remove(s.id);
                closeStandby(s, "it became active here");
            } else if (s.stores == null && now - s.retryAtNanos >= 0) {
                open(s);
            }
        }
        boolean flush = now - lastFlushNanos >= config.stateFlushInterval().toNanos();
        for (StandbyTask s : standbys.values()) {
            if (s.stores == null) {
                continue;
            }
            long lag = s.updateLag(tails, now);
            offsets.put(s.id, s.stores.changelogOffsetSum());
            if (flush) {
                s.stores.flushNow();
            }
            promotions.observe(s, lag, now);
        }
        if (flush) {
            lastFlushNanos = now;
        }
        promotions.update(standbys.values(), now);
    }

    /** A standby failed: every standby closes, and they start over {@link #FAILURE_RETRY} later. */
    void fail(RuntimeException e) {
        log.warn("standby tasks stopped after an error; retrying in {} s: {}", FAILURE_RETRY.toSeconds(),
                e.toString());
        close();
        failedUntil = System.nanoTime() + FAILURE_RETRY.toNanos();
        reconcile();
    }

    /** Closes every standby and the session. */
    void close() {
        for (StandbyTask s : new ArrayList<>(standbys.values())) {
            closeStandby(s, null);
        }
        standbys.clear();
        StateConsumers.closeQuietly(tails);
        tails = null;
    }

    private void open(StandbyTask s) {
        TaskStores stores;
        try {
            stores = TaskStores.open(specs(s.id), s.id, instanceDir.resolve(s.id.toString()),
                    new TaskStores.Options(config.applicationId(), rocksDb, config.stateFlushInterval(), 0,
                            System::currentTimeMillis, tasks.changelogTopicIds()), Duration.ZERO);
        } catch (StoreLockedException e) {
            s.retryAtNanos = System.nanoTime() + LOCK_RETRY.toNanos(); // its active here is still closing
            return;
        }
        s.stores = stores;
        Map<TopicPartition, BytesStore> byChangelog = new HashMap<>();
        stores.all().forEach(store -> byChangelog.put(store.changelog(), store.committed()));
        s.bind(byChangelog.keySet(), stores);
        localStores.registerStandby(s.id, stores, new LocalStores.StandbyLag() {
            @Override
            public long records() {
                return s.lagRecords();
            }

            @Override
            public long millis() {
                return s.lagMillis();
            }
        });
        if (tails == null) {
            tails = consumers.standbySession();
        }
        tails.tail(byChangelog, tp -> RestoreListener.NONE);
        log.info("standby{} task {} started from changelog offsets {}", s.warmup ? " (warm-up)" : "", s.id,
                s.describeOffsets());
    }

    private void closeStandby(StandbyTask s, String why) {
        if (s.stores != null) {
            localStores.unregisterStandby(s.id);
            if (tails != null) {
                tails.remove(s.changelogs);
            }
            try {
                s.stores.close();
            } catch (RuntimeException e) {
                log.warn("closing the stores of standby task {} failed: {}", s.id, e.toString());
            }
            s.stores = null;
            if (why != null) {
                log.info("standby task {} closed: {}", s.id, why);
            }
        }
        s.removeMeters();
        offsets.remove(s.id);
        publish();
    }

    /**
     * The stores a standby of {@code id} keeps: the persistent, logged ones, except a table's store
     * whose changelog is its source topic. A standby tails to the end of its changelogs, and for a
     * source topic that is beyond the committed input offset the active task reprocesses from: a
     * store cannot be rewound, so a promoted copy would be rebuilt anyway (see RestoreSession). Such
     * a store is restored by the active task, from its local state or the beginning, up to the
     * committed offset.
     */
    private List<StoreSpec> specs(TaskId id) {
        if (id.subtopology() >= model.subtopologies().size()) {
            return List.of();
        }
        return model.storesOf(model.subtopologies().get(id.subtopology())).stream()
                .filter(s -> s.persistent() && s.logged() && !s.changelogIsSource()).toList();
    }

    /** Makes the standby set visible to other threads (meters, {@code /info}). */
    private void publish() {
        standbyCount.set(standbys.size());
        warmupCount.set((int) standbys.values().stream().filter(s -> s.warmup).count());
        Map<TaskId, Boolean> v = new TreeMap<>();
        standbys.values().forEach(s -> v.put(s.id, s.warmup));
        view = Collections.unmodifiableMap(v);
    }
}
