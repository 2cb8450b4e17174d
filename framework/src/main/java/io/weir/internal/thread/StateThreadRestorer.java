package io.weir.internal.thread;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.weir.internal.metrics.WeirMeter;
import io.weir.internal.state.TaskStore;
import io.weir.internal.state.restore.RestoreTicket;
import io.weir.internal.state.thread.StateThread;
import io.weir.internal.task.ActiveTask;
import io.weir.processor.TaskId;
import io.weir.state.changelog.RestoreListener;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.kafka.common.TopicPartition;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Brings the stores of a thread's new tasks up to date from their changelogs before the tasks
 * process anything: a new task's input stays paused until each of its logged stores has read its
 * changelog from the offset stored with it (or from the beginning) to the end. Only the tail a
 * store has not seen is replayed, so a restart after a crash takes seconds, not a full replay.
 * The restore itself runs on the instance's {@link StateThread}, so the stream thread keeps
 * polling and processing its other tasks at full speed however large a restore is.
 *
 * A table whose compacted source topic is its changelog is restored from that topic only up to
 * the group's committed offset of the partition (the state thread looks it up), skipping the
 * records processing rejects.
 *
 * <p>Progress goes to the log (per cent and records per second) and to the meters
 * {@code weir.restore.records} (records restored), {@code weir.restore.ingested.records} (the part
 * of them loaded by ingestion), {@code weir.restore.remaining} (offsets
 * left in the restore under way) and {@code weir.restore.skipped} (source records skipped).
 *
 * <p>Owned by one stream thread; the progress callbacks come from the state thread.
 */
final class StateThreadRestorer implements Restorer {

    private static final Logger log = LoggerFactory.getLogger(StateThreadRestorer.class);
    private static final long PROGRESS_LOG_NANOS = Duration.ofSeconds(5).toNanos();

    private final StateThread stateThread;
    private final Map<ActiveTask, RestoreTicket> pending = new LinkedHashMap<>();
    private final ThreadMetrics metrics;
    private final Counter restored;
    /** The part of {@link #restored} loaded by ingestion (restore.bulk.min.records). */
    private final Counter ingested;
    /** Records of a source topic (a table's changelog) the restore skipped: processing rejects them. */
    private final Counter skipped;
    /** The progress of each changelog partition under restore, which owns its gauge. */
    private final Map<TopicPartition, Progress> progress = new ConcurrentHashMap<>();

    StateThreadRestorer(StateThread stateThread, ThreadMetrics metrics) {
        this.stateThread = stateThread;
        this.metrics = metrics;
        this.restored = metrics.restoredRecords();
        this.ingested = WeirMeter.RESTORE_INGESTED_RECORDS
                .counter()
                .tags(metrics.tags())
                .register(metrics.registry());
        this.skipped = WeirMeter.RESTORE_SKIPPED.counter().tags(metrics.tags()).register(metrics.registry());
    }

    /**
     * A new task: if it has logged stores, its input is paused and their restore is handed to the
     * state thread. May be called from a rebalance callback.
     */
    @Override
    public void register(ActiveTask task) {
        Map<TopicPartition, io.weir.state.internal.BytesStore> stores = new java.util.HashMap<>();
        Map<TopicPartition, io.weir.state.changelog.SourceRecords> sources = new java.util.HashMap<>();
        for (TaskStore store : task.stores().all()) {
            if (store.changelog() != null) {
                stores.put(store.changelog(), store.committed());
                if (store.sourceRecords() != null) {
                    sources.put(store.changelog(), store.sourceRecords());
                }
            }
        }
        if (stores.isEmpty()) {
            return;
        }
        task.startRestoring();
        pending.put(task, stateThread.restore(task.id(), stores, sources, tp -> {
            Progress p = new Progress(task, tp, storeName(task, tp));
            progress.put(tp, p);
            return p;
        }));
    }

    /** The task leaves this thread: its restore stops, and its stores are no longer written. */
    @Override
    public void unregister(ActiveTask task) {
        RestoreTicket ticket = pending.remove(task);
        if (ticket != null) {
            stateThread.cancel(ticket);
            endProgress(task);
        }
    }

    @Override
    public long remaining(ActiveTask task) {
        long sum = 0;
        for (TaskStore store : task.stores().all()) {
            if (store.changelog() == null) {
                continue;
            }
            Progress p = progress.get(store.changelog());
            if (p == null || !p.known) {
                return task.isRestoring() ? -1 : 0;
            }
            sum += p.left.get();
        }
        return sum;
    }

    @Override
    public boolean hasPending() {
        return !pending.isEmpty();
    }

    /**
     * Lets every task whose stores are all restored process.
     *
     * @throws RuntimeException what failed a restore (the thread then stops, as for any failure)
     */
    @Override
    public void finishRestored() {
        if (pending.isEmpty()) {
            return;
        }
        for (Map.Entry<ActiveTask, RestoreTicket> e : List.copyOf(pending.entrySet())) {
            if (e.getValue().done()) {
                ActiveTask task = e.getKey();
                task.finishRestoring();
                pending.remove(task);
                endProgress(task);
            }
        }
    }

    private void endProgress(ActiveTask task) {
        for (TaskStore store : task.stores().all()) {
            Progress p = store.changelog() == null ? null : progress.remove(store.changelog());
            if (p != null) {
                p.end();
            }
        }
    }

    /** Stops the restores under way (the thread is closing its tasks). */
    @Override
    public void close() {
        for (ActiveTask task : List.copyOf(pending.keySet())) {
            unregister(task);
        }
        progress.values().forEach(Progress::end);
        progress.clear();
    }

    private static String storeName(ActiveTask task, TopicPartition changelog) {
        for (TaskStore store : task.stores().all()) {
            if (changelog.equals(store.changelog())) {
                return store.name();
            }
        }
        return "?";
    }

    /**
     * Feeds the meters and the thread's health, and logs progress at most every few seconds. Its
     * gauge {@code weir.restore.remaining} (tagged with task and store) lives while the restore does.
     */
    private final class Progress implements RestoreListener {
        private final TaskId task;
        private final TopicPartition tp;
        private final String store;
        private final String what;
        private final long started = System.nanoTime();
        private final AtomicLong left = new AtomicLong();
        /** onStart has set {@link #left}: before, what is left is not known. */
        private volatile boolean known;

        private final Gauge gauge;
        private long total;
        private long lastLog = System.nanoTime();
        private long counted;

        Progress(ActiveTask task, TopicPartition tp, String store) {
            this.task = task.id();
            this.tp = tp;
            this.store = store;
            this.what = "store " + store + " of task " + task.id() + " from " + tp;
            this.gauge = WeirMeter.RESTORE_REMAINING
                    .gauge(left, AtomicLong::get)
                    .tags(metrics.tags().and("task", task.id().toString(), "store", store))
                    .strongReference(true)
                    .register(metrics.registry());
        }

        @Override
        public void onStart(long startOffset, long endOffset) {
            total = Math.max(0, endOffset - startOffset);
            publish(0, total);
            known = true;
            if (total > 0) {
                log.info("restoring {}: {} changelog offsets ({} to {})", what, total, startOffset, endOffset);
            }
        }

        @Override
        public void onBatch(long restoredSoFar, long offsetsLeft) {
            restored.increment(restoredSoFar - counted);
            counted = restoredSoFar;
            publish(restoredSoFar, offsetsLeft);
            long now = System.nanoTime();
            if (now - lastLog > PROGRESS_LOG_NANOS) {
                lastLog = now;
                double seconds = (now - started) / 1e9;
                log.info(
                        "restoring {}: {}% ({} records, {} records/s)",
                        what, total == 0 ? 100 : 100 * (total - offsetsLeft) / total, restoredSoFar, (long)
                                (restoredSoFar / seconds));
            }
        }

        @Override
        public void onIngested(long records) {
            ingested.increment(records);
        }

        @Override
        public void onSkipped(long offset) {
            skipped.increment();
            log.debug(
                    "restoring {}: skipped the record at offset {}, which processing rejects (a dead letter)",
                    what,
                    offset);
        }

        @Override
        public void onDone(long count, long millis) {
            restored.increment(count - counted);
            counted = count;
            left.set(0);
            metrics.health().restored(tp.toString());
        }

        private void publish(long restoredSoFar, long offsetsLeft) {
            left.set(offsetsLeft);
            metrics.health()
                    .restoring(
                            tp.toString(),
                            new ThreadHealth.Restore(task, store, tp.toString(), restoredSoFar, offsetsLeft));
        }

        /** The restore ended or left this thread: its gauge and health entry go. */
        void end() {
            metrics.registry().remove(gauge);
            metrics.health().restored(tp.toString());
        }
    }
}
