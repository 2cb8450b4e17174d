package io.weir.internal.state;

import io.weir.errors.StoreLockedException;
import io.weir.internal.commit.OpenTransaction;
import io.weir.internal.topology.StoreSpec;
import io.weir.processor.TaskId;
import io.weir.state.internal.BytesStore;
import io.weir.state.rocksdb.RocksDbResources;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.LongSupplier;
import org.apache.kafka.common.TopicPartition;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The stores of one task: opened when the task is created (a corrupt local store is wiped, to be
 * rebuilt from its changelog), committed and aborted with the task, closed with it.
 */
public final class TaskStores {

    private static final Logger log = LoggerFactory.getLogger(TaskStores.class);
    private static final java.time.Duration LOCK_WAIT = java.time.Duration.ofSeconds(60);

    /** Where the task keeps its {@link Checkpoint}; null when nothing of it is on disk. */
    private final Path dir;

    private final Map<String, TaskStore> stores;
    private final long flushIntervalNanos;
    private long lastFlush = System.nanoTime();
    /** Commits applied writes since the last flush. */
    private boolean dirty;

    private TaskStores(Path dir, Map<String, TaskStore> stores, long flushIntervalNanos) {
        this.dir = dir;
        this.stores = stores;
        this.flushIntervalNanos = flushIntervalNanos;
    }

    public static TaskStores none() {
        return new TaskStores(null, Map.of(), Long.MAX_VALUE);
    }

    /**
     * What every task of an instance opens its stores with.
     *
     * @param applicationId  names the changelog topics ({@code <applicationId>-<store>-changelog})
     * @param resources      the memory budget RocksDB stores draw from; null if every store is in memory
     * @param flushInterval  {@code state.flush.interval.ms}: how often committed writes are flushed to disk
     * @param readCacheBytes {@code store.read.cache.bytes}: each store's cache of committed reads
     * @param clock          the processing clock (epoch milliseconds) that stamps, hides and sweeps
     *                       the entries of stores with a TTL; the thread's wall clock
     * @param topicIds       the current ids of the changelog topics, to detect local state of a
     *                       changelog since deleted and recreated ({@link ChangelogTopicIds#UNKNOWN}:
     *                       no such check)
     */
    public record Options(
            String applicationId,
            RocksDbResources resources,
            java.time.Duration flushInterval,
            long readCacheBytes,
            LongSupplier clock,
            ChangelogTopicIds topicIds) {

        /** Without topic ids: local state is judged by its changelog offsets only. */
        public Options(
                String applicationId,
                RocksDbResources resources,
                java.time.Duration flushInterval,
                long readCacheBytes,
                LongSupplier clock) {
            this(applicationId, resources, flushInterval, readCacheBytes, clock, ChangelogTopicIds.UNKNOWN);
        }
    }

    /**
     * Opens the stores of a task under {@code <taskDir>/<store>}, waiting up to a minute for a
     * store another task of this instance still holds.
     */
    public static TaskStores open(List<StoreSpec> specs, TaskId task, Path taskDir, Options options) {
        return open(specs, task, taskDir, options, LOCK_WAIT);
    }

    /**
     * As {@link #open(List, TaskId, Path, Options)}, starting from the stores in {@code handedOver}
     * (see {@link #open(List, TaskId, Path, Options, java.time.Duration, Map)}).
     */
    public static TaskStores open(
            List<StoreSpec> specs, TaskId task, Path taskDir, Options options, Map<String, BytesStore> handedOver) {
        return open(specs, task, taskDir, options, LOCK_WAIT, handedOver);
    }

    /**
     * Opens the stores of a task under {@code <taskDir>/<store>}. If a store's changelog was
     * deleted and recreated since the store last followed it (its recorded topic id differs from
     * the current one, see {@link ChangelogTopicIds}), every store of the task is wiped, to be
     * restored from the beginning: stale local state is never reused after a reset. Each store
     * then records the current topic id of its changelog.
     *
     * @param lockWait how long to wait while another open store holds a store's directory
     * @throws StoreLockedException if one is still held after {@code lockWait}
     */
    public static TaskStores open(
            List<StoreSpec> specs, TaskId task, Path taskDir, Options options, java.time.Duration lockWait) {
        return open(specs, task, taskDir, options, lockWait, Map.of());
    }

    /**
     * As {@link #open(List, TaskId, Path, Options, java.time.Duration)}, starting from stores a
     * standby copy of the task on this instance {@linkplain #handOver handed over} open (by store
     * name; the persistent ones of {@code specs}); the others are opened. This takes ownership of
     * {@code handedOver}: closed here if the task's stores cannot all be opened.
     */
    public static TaskStores open(
            List<StoreSpec> specs,
            TaskId task,
            Path taskDir,
            Options options,
            java.time.Duration lockWait,
            Map<String, BytesStore> handedOver) {
        Map<String, TaskStore> opened = TaskStoreOpener.open(specs, task, taskDir, options, lockWait, handedOver);
        boolean onDisk = specs.stream().anyMatch(StoreSpec::persistent);
        return new TaskStores(
                onDisk ? taskDir : null,
                Collections.unmodifiableMap(opened),
                options.flushInterval().toNanos());
    }

    public boolean isEmpty() {
        return stores.isEmpty();
    }

    /** The typed stores by name, for the processors' contexts. */
    public Map<String, Object> typedByName() {
        Map<String, Object> m = new LinkedHashMap<>();
        stores.forEach((name, s) -> m.put(name, s.typed()));
        return m;
    }

    public List<TaskStore> all() {
        return new ArrayList<>(stores.values());
    }

    public long pendingBytes() {
        long sum = 0;
        for (TaskStore s : stores.values()) {
            sum += s.pendingBytes();
        }
        return sum;
    }

    public void sweepExpired(long now) {
        stores.values().forEach(s -> s.sweepExpired(now));
    }

    /** Step 2: every store's pending changelog records into the open transaction. */
    public void writeChangelog(OpenTransaction transaction) {
        stores.values().forEach(s -> s.writeChangelog(transaction));
    }

    /** Step 5: the transaction committed; the stores take their pending writes. */
    public void commit() {
        commit(Map.of());
    }

    /**
     * Step 5, with the input offsets the transaction committed (next offset to process, by
     * partition): a store whose changelog is its source topic records its partition's.
     */
    public void commit(Map<TopicPartition, Long> inputOffsets) {
        for (TaskStore s : stores.values()) {
            dirty |= s.commit(inputOffsets);
        }
    }

    /**
     * Gives each store whose changelog is its source topic what it keeps of the topic's records
     * (see {@link TaskStore#sourceRecords}).
     */
    public void bindSourceRecords(java.util.function.Function<StoreSpec, io.weir.state.changelog.SourceRecords> rows) {
        for (TaskStore s : stores.values()) {
            if (s.spec().changelogIsSource()) {
                s.sourceRecords(rows.apply(s.spec()));
            }
        }
    }

    /**
     * Right after {@link #commit()}: drops from the local stores the windows and sessions whose
     * retention is over at {@code watermark} (the task's event-time watermark, epoch ms):
     * <ul>
     *   <li>a window store drops each window with {@code start + windowSize + retention <= watermark},
     *       i.e. every start {@code <= watermark - windowSize - retention} (one range delete);</li>
     *   <li>a session store drops each session with {@code end + retention <= watermark}, where
     *       {@code end} is the time of the session's last record (inclusive).</li>
     * </ul>
     * A window or session exactly at the boundary is dropped; one millisecond later is kept.
     * Key-value stores are untouched.
     *
     * <p>Local only, deliberately not changelogged: the DSL ignores closed windows logically
     * whether or not they are still stored, and a window or session changelog topic is
     * {@code compact,delete} with a time retention of its own, so Kafka drops them there too. A
     * restore may thus bring back a few expired windows, which the next call drops again. Writes
     * bypass the pending writes and leave the stores' changelog offsets unchanged.
     *
     * <p>Cheap when nothing expired: each store remembers a lower bound of its earliest window
     * start or session end and touches its bytes store only when the cutoff passes it.
     *
     * <p>Call it only for a task that has finished restoring: each store reads its earliest time
     * once, so a restore still writing older windows afterwards would leave them until a later
     * drop.
     *
     * @throws IllegalStateException if a store has pending writes (call it after a commit)
     */
    public void dropExpired(long watermark) {
        for (TaskStore s : stores.values()) {
            if (s.pendingCount() > 0 && s.spec().kind() != StoreSpec.Kind.KEY_VALUE) {
                throw new IllegalStateException("store '" + s.name() + "' has " + s.pendingCount()
                        + " pending writes; drop expired windows only right after a commit");
            }
        }
        for (TaskStore s : stores.values()) {
            dirty |= s.dropExpired(watermark);
        }
    }

    /**
     * Every {@code state.flush.interval.ms}, a background flush to local disk of what commits
     * applied since the last one. Stores keep no write-ahead log (the changelog is the log), so
     * this bounds what a crash loses locally, and with it the changelog tail the restart replays.
     * Called whether or not the task committed, so an idle task flushes too.
     */
    public void maybeFlush() {
        if (!dirty) {
            return;
        }
        long now = System.nanoTime();
        if (now - lastFlush >= flushIntervalNanos) {
            lastFlush = now;
            dirty = false;
            stores.values().forEach(s -> s.committed().flushAsync());
            writeCheckpoint();
        }
    }

    /**
     * Flushes every store to local disk now and records the offsets (a standby's stores, which
     * are written by their changelog, not by commits).
     */
    public void flushNow() {
        stores.values().forEach(s -> s.committed().flushAsync());
        writeCheckpoint();
    }

    /**
     * The sum of the changelog offsets the persistent logged stores hold: how far this task's
     * local state has come, which the assignor compares with the changelogs' ends. A store whose
     * changelog is its source topic is left out (the assignor leaves it out of the ends too).
     */
    public long changelogOffsetSum() {
        return Checkpoint.sum(offsets());
    }

    private Map<TopicPartition, Checkpoint.Entry> offsets() {
        Map<TopicPartition, Checkpoint.Entry> offsets = new LinkedHashMap<>();
        for (TaskStore s : stores.values()) {
            if (s.changelog() != null && s.spec().persistent() && !s.spec().changelogIsSource()) {
                offsets.put(
                        s.changelog(),
                        new Checkpoint.Entry(
                                s.committed().changelogOffset().orElse(0L),
                                s.committed().changelogTopicId().orElse(null)));
            }
        }
        return offsets;
    }

    /** Records the stores' offsets (and their changelogs' ids) beside them, for an assignment while they are closed. */
    private void writeCheckpoint() {
        if (dir != null) {
            Checkpoint.write(dir, offsets());
        }
    }

    public void abort() {
        stores.values().forEach(TaskStore::abort);
    }

    /**
     * Gives up the stores without closing them, for the active task that takes this copy's place
     * on this instance (a standby's stores, which hold no pending writes): by store name, open.
     * These stores must not be used afterwards.
     */
    public Map<String, BytesStore> handOver() {
        Map<String, BytesStore> open = new LinkedHashMap<>();
        for (TaskStore s : stores.values()) {
            if (s.pendingCount() > 0) {
                throw new IllegalStateException("store '" + s.name() + "' has " + s.pendingCount()
                        + " pending writes; only a copy without them is handed over");
            }
            open.put(s.name(), s.committed());
        }
        return open;
    }

    public void close() {
        try {
            writeCheckpoint();
        } catch (RuntimeException e) {
            log.warn("cannot write the checkpoint of the stores in {}: {}", dir, e.toString());
        }
        RuntimeException first = null;
        for (TaskStore s : stores.values()) {
            try {
                s.close();
            } catch (RuntimeException e) {
                if (first == null) {
                    first = e;
                }
            }
        }
        if (first != null) {
            throw first;
        }
    }
}
