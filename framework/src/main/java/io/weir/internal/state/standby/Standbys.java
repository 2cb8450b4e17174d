package io.weir.internal.state.standby;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import io.weir.common.internal.Deadline;
import io.weir.config.WeirConfig;
import io.weir.errors.StoreLockedException;
import io.weir.internal.assign.MemberHooks.MemberAssignment;
import io.weir.internal.metrics.WeirMeter;
import io.weir.internal.state.ChangelogTopicIds;
import io.weir.internal.state.LocalStores;
import io.weir.internal.state.StoreHandOver;
import io.weir.internal.state.TaskStores;
import io.weir.internal.state.restore.StateConsumers;
import io.weir.internal.topology.StoreSpec;
import io.weir.internal.topology.TopologyModel;
import io.weir.processor.TaskId;
import io.weir.state.changelog.RestoreListener;
import io.weir.state.changelog.RestoreSession;
import io.weir.state.internal.BytesStore;
import io.weir.state.rocksdb.RocksDbResources;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.BooleanSupplier;
import java.util.function.Predicate;
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
 * {@code weir.standby.lag.seconds} (see {@link StandbyTask}); {@code weir.standby.tasks},
 * {@code weir.warmup.tasks} and {@code weir.standby.handovers}.
 *
 * <p>Threads: {@link #holdsAny}, {@link #offsetSums}, {@link #ids} and {@link #takeRebalanceRequest}
 * are for any thread; everything else runs on the state thread ({@link #bind} before it starts).
 */
public final class Standbys {

    private static final Logger log = LoggerFactory.getLogger(Standbys.class);
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
    private final PublishedStandbys published;
    private final io.micrometer.core.instrument.Counter handOvers;

    // ---- state thread only ----------------------------------------------------------------------
    /** Whether a task is active on this instance (its standby never opens). */
    private Predicate<TaskId> activeOnInstance;

    private ChangelogTopicIds topicIds;
    private final Map<Integer, MemberAssignment> assigned = new TreeMap<>();
    /** The tasks the latest assignment makes active on this instance. */
    private Set<TaskId> activeHere = Set.of();

    private final Map<TaskId, StandbyTask> standbys = new TreeMap<>();
    /** Created with the first standby, and again after a failure closed it. */
    private RestoreSession tails;

    private long lastFlushNanos = System.nanoTime();
    private final LocalStores localStores;
    /** Until when standbys wait after a failure; passed at first. */
    private Deadline failureRetry = Deadline.after(Duration.ZERO);

    public Standbys(
            WeirConfig config,
            TopologyModel model,
            Path instanceDir,
            RocksDbResources rocksDb,
            MeterRegistry registry,
            Tags tags,
            StateConsumers consumers,
            LocalStores localStores) {
        this.localStores = localStores;
        this.config = config;
        this.model = model;
        this.instanceDir = instanceDir;
        this.rocksDb = rocksDb;
        this.registry = registry;
        this.tags = tags;
        this.consumers = consumers;
        this.promotions = new Promotions(config.acceptableRecoveryLag(), config.probingRebalanceInterval());
        this.published = new PublishedStandbys(registry, tags);
        this.handOvers = WeirMeter.STANDBY_HANDOVERS.counter().tags(tags).register(registry);
    }

    /** The tasks active on this instance, whose standbys never open; before the state thread starts. */
    public void bind(Predicate<TaskId> activeOnInstance, ChangelogTopicIds topicIds) {
        this.activeOnInstance = activeOnInstance;
        this.topicIds = topicIds;
    }

    // ---- any thread -----------------------------------------------------------------------------

    /** True if one of {@code ids} has a standby here, as the state thread last published. */
    public boolean holdsAny(Collection<TaskId> ids) {
        return published.holdsAny(ids);
    }

    /** The standbys' stores' offset sums, for the assignor. */
    public Map<TaskId, Long> offsetSums() {
        return published.offsetSums();
    }

    /** The standby tasks ({@code warmupsOnly}: the warm-ups among them), sorted. */
    public List<String> ids(boolean warmupsOnly) {
        return published.ids(warmupsOnly);
    }

    /** Why stream thread {@code threadIndex} should rebalance now, or null; asking clears it. */
    public String takeRebalanceRequest(int threadIndex) {
        return promotions.take(threadIndex);
    }

    // ---- state thread ---------------------------------------------------------------------------

    /**
     * A stream thread's standby and warm-up tasks from the latest assignment, and the tasks it
     * makes active on this instance: their open standbys are kept for the hand-over.
     */
    public void assign(int threadIndex, MemberAssignment assignment, Set<TaskId> activeHere) {
        assigned.put(threadIndex, assignment);
        this.activeHere = activeHere;
        promotions.assigned(System.nanoTime());
        reconcile();
    }

    /** Opens the standbys the assignment wants and closes those it no longer wants. */
    public void reconcile() {
        Map<TaskId, Integer> wanted = new TreeMap<>();
        Set<TaskId> warmups = new HashSet<>();
        assigned.forEach((threadIndex, a) -> {
            for (TaskId id : a.standbys()) {
                if (!activeOnInstance.test(id) && !specs(id).isEmpty()) {
                    wanted.putIfAbsent(id, threadIndex);
                }
            }
            warmups.addAll(a.warmups());
        });
        long now = System.nanoTime();
        for (StandbyTask s : new ArrayList<>(standbys.values())) {
            if (!wanted.containsKey(s.id) && !awaitsRelease(s, now)) {
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

    /**
     * The standbys of {@code ids} end: the tasks become active here. Their open stores are handed
     * over to the active tasks (not closed and reopened), having stopped following their changelogs;
     * the active task's restore reads the tail from where the standby left off.
     */
    public StoreHandOver release(Set<TaskId> ids) {
        Map<TaskId, Map<String, BytesStore>> open = new HashMap<>();
        for (TaskId id : ids) {
            StandbyTask standby = standbys.remove(id);
            if (standby == null) {
                continue;
            }
            if (standby.stores != null) {
                TaskStores stores = standby.stores;
                String offsets = standby.describeOffsets();
                detach(standby);
                open.put(id, stores.handOver());
                handOvers.increment();
                log.info(
                        "standby task {} handed its open stores to the active task taking its place here, at"
                                + " changelog offsets {}",
                        id,
                        offsets);
            }
            forget(standby);
        }
        return new StoreHandOver(open);
    }

    /** True if {@code id} has a standby here (open or waiting to open). */
    public boolean has(TaskId id) {
        return standbys.containsKey(id);
    }

    /** True if there are standbys to update, and they are not waiting out a failure. */
    public boolean canStep() {
        return tails != null && !tails.isEmpty() && failureRetry.expired();
    }

    /** Updates the standbys for one slice of the state thread's time (or until {@code yield}), then maintains them. */
    public void step(BooleanSupplier yield) {
        tails.step(StateConsumers.STEP, yield);
        maintain(yield);
    }

    /**
     * Opens standbys whose stores are free (none while {@code yield} says a command waits),
     * publishes lags and offsets, flushes, asks for rebalances.
     */
    public void maintain(BooleanSupplier yield) {
        if (standbys.isEmpty() || !failureRetry.expired()) {
            return;
        }
        long now = System.nanoTime();
        // Opening a store takes a while (RocksDB, a tenth of a second or more): not while a task
        // waits for the hand-over of a copy here, or for any other command of the state thread.
        boolean releaseDue = standbys.values().stream().anyMatch(s -> awaitsRelease(s, now));
        for (StandbyTask s : new ArrayList<>(standbys.values())) {
            if (awaitsRelease(s, now)) {
                continue;
            } else if (activeOnInstance.test(s.id)) {
                // Became active here while its standby was being placed (or no release came): the
                // active's stores win.
                standbys.remove(s.id);
                closeStandby(s, "it became active here");
            } else if (s.stores == null && s.openRetry.expired() && !releaseDue && !yield.getAsBoolean()) {
                open(s);
            }
        }
        boolean flush = now - lastFlushNanos >= config.stateFlushInterval().toNanos();
        for (StandbyTask s : standbys.values()) {
            if (s.stores == null) {
                continue;
            }
            long lag = s.updateLag(tails, now);
            published.offset(s.id, s.stores.changelogOffsetSum());
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

    /** See {@link StandbyTask#awaitsRelease}. */
    private boolean awaitsRelease(StandbyTask s, long now) {
        return s.awaitsRelease(activeHere.contains(s.id) || activeOnInstance.test(s.id), now);
    }

    /** A standby failed: every standby closes, and they start over {@link #FAILURE_RETRY} later. */
    public void fail(RuntimeException e) {
        log.warn("standby tasks stopped after an error; retrying in {} s: {}", FAILURE_RETRY.toSeconds(), e.toString());
        close();
        failureRetry = Deadline.after(FAILURE_RETRY);
        reconcile();
    }

    /** Closes every standby and the session. */
    public void close() {
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
            stores = TaskStores.open(
                    specs(s.id),
                    s.id,
                    instanceDir.resolve(s.id.toString()),
                    new TaskStores.Options(
                            config.applicationId(),
                            rocksDb,
                            config.stateFlushInterval(),
                            0,
                            System::currentTimeMillis,
                            topicIds),
                    Duration.ZERO);
        } catch (StoreLockedException e) {
            s.openRetry = Deadline.after(LOCK_RETRY); // its active here is still closing
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
        log.info(
                "standby{} task {} started from changelog offsets {}",
                s.warmup ? " (warm-up)" : "",
                s.id,
                s.describeOffsets());
    }

    private void closeStandby(StandbyTask s, String why) {
        if (s.stores != null) {
            TaskStores stores = s.stores;
            detach(s);
            try {
                stores.close();
            } catch (RuntimeException e) {
                log.warn("closing the stores of standby task {} failed: {}", s.id, e.toString());
            }
            if (why != null) {
                log.info("standby task {} closed: {}", s.id, why);
            }
        }
        forget(s);
    }

    /** Queries and the changelog session let go of the standby's open stores. */
    private void detach(StandbyTask s) {
        localStores.unregisterStandby(s.id);
        if (tails != null) {
            tails.remove(s.changelogs);
        }
        s.stores = null;
    }

    /** Its meters and offsets go; the other threads see the standby set without it. */
    private void forget(StandbyTask s) {
        s.removeMeters();
        published.offset(s.id, null);
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
                .filter(s -> s.persistent() && s.logged() && !s.changelogIsSource())
                .toList();
    }

    /** Makes the standby set visible to other threads (meters, {@code /info}). */
    private void publish() {
        published.publish(standbys.values());
    }
}
