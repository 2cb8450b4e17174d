package io.weir.internal.state;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import io.weir.errors.StoreClosedException;
import io.weir.internal.metrics.WeirMeter;
import io.weir.internal.topology.StoreSpec;
import io.weir.processor.TaskId;
import io.weir.serde.Serde;
import io.weir.state.ReadOnlyKeyValueStore;
import io.weir.state.ReadOnlySessionStore;
import io.weir.state.ReadOnlyWindowStore;
import io.weir.state.internal.BytesReader;
import io.weir.state.internal.TtlReader;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import java.util.function.LongSupplier;

/**
 * The stores of every task this instance runs, by store name, for reads from outside the stream
 * threads (the application, and later the query endpoints).
 *
 * <p>Such reads see committed state only: they read the committed bytes stores, never a task's
 * pending writes, so a reader never sees a change that a crash or an abort could take back. The
 * committed stores are safe to read from any thread. Registration happens on the stream threads;
 * any thread may read.
 *
 * <p>Entries of a store with a TTL are hidden once expired by {@code clock}, the same processing
 * clock the tasks stamp and sweep them with, whether or not a commit has deleted them yet.
 */
public final class LocalStores {

    private final ConcurrentMap<String, ConcurrentMap<TaskId, TaskStore>> byName = new ConcurrentHashMap<>();
    /** Standby copies kept on this instance, by task: readable by queries that accept their lag. */
    private final ConcurrentMap<TaskId, Standby> standbys = new ConcurrentHashMap<>();
    /** Per registered task: whether its stores restore (when they lag behind its committed state), and how far. */
    private final ConcurrentMap<TaskId, Restoring> restoring = new ConcurrentHashMap<>();

    private record Restoring(java.util.function.BooleanSupplier now, java.util.function.LongSupplier remaining) {}

    private final LongSupplier clock;

    /** @param clock the processing clock (epoch ms) that hides expired TTL entries; read by the reading thread */
    public LocalStores(LongSupplier clock) {
        this.clock = java.util.Objects.requireNonNull(clock, "clock");
    }

    public void register(TaskId task, TaskStores stores) {
        register(task, stores, () -> false, () -> 0);
    }

    /**
     * Makes a task's stores readable. {@code restoring} tells, from any thread, whether they are
     * still being restored: register after the restore has started, so that a task never looks
     * caught up before it is. {@code remaining} tells how many changelog records it has still to
     * restore (-1: not known yet).
     */
    public void register(
            TaskId task,
            TaskStores stores,
            java.util.function.BooleanSupplier restoring,
            java.util.function.LongSupplier remaining) {
        this.restoring.put(task, new Restoring(restoring, remaining));
        for (TaskStore s : stores.all()) {
            byName.computeIfAbsent(s.name(), n -> new ConcurrentHashMap<>()).put(task, s);
        }
    }

    /**
     * The committed reader of {@code spec} in {@code task}, if this instance runs the task and its
     * stores are restored: what a query for a key of that task may be answered from here.
     */
    public java.util.Optional<BytesReader> servable(StoreSpec spec, TaskId task) {
        Map<TaskId, TaskStore> m = byName.get(spec.name());
        TaskStore s = m == null ? null : m.get(task);
        Restoring r = restoring.get(task);
        if (s == null || r == null || r.now().getAsBoolean()) {
            return java.util.Optional.empty();
        }
        BytesReader committed = s.committed();
        return java.util.Optional.of(spec.ttl() == null ? committed : new TtlReader(committed, clock));
    }

    /**
     * How far a standby copy is behind its changelogs, read by any thread.
     *
     * @see #registerStandby
     */
    public interface StandbyLag {
        /** Changelog records the copy has not applied yet, or -1 while that is not known. */
        long records();

        /** How long since the copy last had applied all of its changelogs, in milliseconds. */
        long millis();
    }

    /**
     * A copy behind its changelog read by a query (a standby, or an active task still restoring):
     * its committed reader and its lag when it was asked.
     */
    public record LaggingRead(BytesReader reader, long lagRecords, long lagMillis) {}

    /**
     * The stores of {@code spec} of {@code task}, registered and still restoring here, with the
     * records left to restore, if that is known: a copy at least as fresh as the standby it may
     * have been promoted from. Its lag in time is not measured: 0.
     */
    public java.util.Optional<LaggingRead> restoring(StoreSpec spec, TaskId task) {
        Map<TaskId, TaskStore> m = byName.get(spec.name());
        TaskStore s = m == null ? null : m.get(task);
        Restoring r = restoring.get(task);
        if (s == null || r == null || !r.now().getAsBoolean()) {
            return java.util.Optional.empty();
        }
        long left = r.remaining().getAsLong();
        if (left < 0) {
            return java.util.Optional.empty();
        }
        BytesReader committed = s.committed();
        return java.util.Optional.of(
                new LaggingRead(spec.ttl() == null ? committed : new TtlReader(committed, clock), left, 0));
    }

    private record Standby(TaskStores stores, StandbyLag lag) {}

    /** A standby copy of {@code task} opened on this instance (the state thread's). */
    public void registerStandby(TaskId task, TaskStores stores, StandbyLag lag) {
        standbys.put(task, new Standby(stores, lag));
    }

    /** The standby copy of {@code task} is closing; called before its stores close. */
    public void unregisterStandby(TaskId task) {
        standbys.remove(task);
    }

    /**
     * The standby copy of {@code spec} in {@code task} on this instance, with its lag, if there is
     * one, it keeps that store, and its lag is known. The stores may close while being read (the
     * copy becomes active, or stops): a read then fails with {@link StoreClosedException}.
     */
    public java.util.Optional<LaggingRead> standby(StoreSpec spec, TaskId task) {
        Standby s = standbys.get(task);
        if (s == null) {
            return java.util.Optional.empty();
        }
        long records = s.lag().records();
        if (records < 0) {
            return java.util.Optional.empty();
        }
        for (TaskStore store : s.stores().all()) {
            if (store.name().equals(spec.name())) {
                BytesReader committed = store.committed();
                return java.util.Optional.of(new LaggingRead(
                        spec.ttl() == null ? committed : new TtlReader(committed, clock),
                        records,
                        s.lag().millis()));
            }
        }
        return java.util.Optional.empty();
    }

    public void unregister(TaskId task, TaskStores stores) {
        restoring.remove(task);
        for (TaskStore s : stores.all()) {
            Map<TaskId, TaskStore> m = byName.get(s.name());
            if (m != null) {
                m.remove(task, s);
            }
        }
    }

    /**
     * A typed, read-only view of key-value store {@code spec} across this instance's tasks.
     *
     * @throws IllegalArgumentException if {@code spec} is a window or session store
     */
    @SuppressWarnings("unchecked")
    public <K, V> ReadOnlyKeyValueStore<K, V> view(StoreSpec spec) {
        requireKind(spec, StoreSpec.Kind.KEY_VALUE);
        UnionReader union = new UnionReader(() -> readers(spec));
        return new TypedReader<>(
                spec.name(), spec.name(), union, (Serde<K>) spec.keySerde(), (Serde<V>) spec.valueSerde());
    }

    /**
     * A typed, read-only view of window store {@code spec} across this instance's tasks: scans
     * merge the tasks' stores in (start, key bytes) order.
     *
     * @throws IllegalArgumentException if {@code spec} is not a window store
     */
    @SuppressWarnings("unchecked")
    public <K, V> ReadOnlyWindowStore<K, V> windowView(StoreSpec spec) {
        requireKind(spec, StoreSpec.Kind.WINDOW);
        UnionReader union = new UnionReader(() -> readers(spec));
        return new TypedWindowReader<>(
                spec.name(),
                spec.name(),
                union,
                (Serde<K>) spec.keySerde(),
                (Serde<V>) spec.valueSerde(),
                spec.windowSizeMs());
    }

    /**
     * A typed, read-only view of session store {@code spec} across this instance's tasks: a key's
     * sessions are in one task; {@code fetchAll} merges the tasks' time indexes in end order.
     *
     * @throws IllegalArgumentException if {@code spec} is not a session store
     */
    @SuppressWarnings("unchecked")
    public <K, V> ReadOnlySessionStore<K, V> sessionView(StoreSpec spec) {
        requireKind(spec, StoreSpec.Kind.SESSION);
        UnionReader union = new UnionReader(() -> readers(spec));
        return new TypedSessionReader<>(
                spec.name(), spec.name(), union, (Serde<K>) spec.keySerde(), (Serde<V>) spec.valueSerde());
    }

    private static void requireKind(StoreSpec spec, StoreSpec.Kind kind) {
        if (spec.kind() != kind) {
            throw new IllegalArgumentException("store '" + spec.name() + "' is a "
                    + spec.kind().label() + " store, not a " + kind.label() + " store");
        }
    }

    /**
     * Registers the gauge {@code weir.store.entries} (tag {@code store}) for each of
     * {@code storeNames}: the entries of that store over the tasks this instance runs, as the
     * stores estimate them (RocksDB's {@code rocksdb.estimate-num-keys}: cheap, approximate, and
     * counting a deleted key until compaction drops it). Committed state, as every read here.
     */
    public void bindEntries(MeterRegistry registry, Tags tags, Collection<String> storeNames) {
        for (String name : storeNames) {
            WeirMeter.STORE_ENTRIES
                    .gauge(() -> approximateEntries(name))
                    .tags(tags.and("store", name))
                    .register(registry);
        }
    }

    /** The estimated entries of store {@code name} over the tasks registered now; a store closing meanwhile counts 0. */
    double approximateEntries(String name) {
        Map<TaskId, TaskStore> m = byName.get(name);
        long entries = 0;
        if (m != null) {
            for (TaskStore s : m.values()) {
                try {
                    entries += s.committed().approximateCount();
                } catch (StoreClosedException closing) {
                    // the task is being closed: its entries are no longer this instance's
                }
            }
        }
        return entries;
    }

    private List<BytesReader> readers(StoreSpec spec) {
        Map<TaskId, TaskStore> m = byName.get(spec.name());
        if (m == null) {
            return List.of();
        }
        List<BytesReader> readers = new ArrayList<>();
        for (TaskStore s : m.values()) {
            BytesReader committed = s.committed();
            readers.add(spec.ttl() == null ? committed : new TtlReader(committed, clock));
        }
        return readers;
    }
}
