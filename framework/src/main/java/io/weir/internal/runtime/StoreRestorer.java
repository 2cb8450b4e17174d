package io.weir.internal.runtime;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.weir.internal.state.TaskStore;
import io.weir.processor.TaskId;
import io.weir.state.changelog.RestoreSession;
import io.weir.state.changelog.RestoreListener;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.common.TopicPartition;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Brings the stores of a thread's new tasks up to date from their changelogs before the tasks
 * process anything: a new task's input stays paused until each of its logged stores has read its
 * changelog from the offset stored with it (or from the beginning) to the end. Only the tail a
 * store has not seen is replayed, so a restart after a crash takes seconds, not a full replay.
 * Restores advance in bounded slices between the thread's polls, so other tasks keep processing
 * and the thread stays in its group during a long restore.
 *
 * <p>Progress goes to the log (per cent and records per second) and to the meters
 * {@code weir.restore.records} (records restored) and {@code weir.restore.remaining} (offsets
 * left in the restore under way).
 *
 * <p>Owned by one stream thread; its consumers (no group) are created on first use: one
 * read_committed, which reads the changelogs, and one read_uncommitted, which only looks up their
 * log ends, so a restore that starts while the previous owner's last transaction has no markers yet
 * waits for them instead of missing that transaction (see {@link RestoreSession}).
 */
final class StoreRestorer implements AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(StoreRestorer.class);
    private static final long PROGRESS_LOG_NANOS = Duration.ofSeconds(5).toNanos();

    private final ThreadContext ctx;
    private final int index;
    private final List<Task> pending = new ArrayList<>();
    private final ThreadMetrics metrics;
    private final Counter restored;
    /** The progress of each changelog partition under restore, which owns its gauge. */
    private final Map<TopicPartition, Progress> progress = new HashMap<>();
    private KafkaConsumer<byte[], byte[]> consumer;
    private KafkaConsumer<byte[], byte[]> logEndConsumer;
    private RestoreSession session;

    StoreRestorer(ThreadContext ctx, int index, ThreadMetrics metrics) {
        this.ctx = ctx;
        this.index = index;
        this.metrics = metrics;
        this.restored = Counter.builder("weir.restore.records").description("changelog records restored into stores")
                .tags(metrics.tags()).register(metrics.registry());
    }

    /**
     * A new task: if it has logged stores, its input is paused and their restore starts (it is
     * advanced by {@link #restoreSome}). May be called from a rebalance callback.
     */
    void register(Task task) {
        Map<TopicPartition, io.weir.state.internal.BytesStore> stores = new HashMap<>();
        for (TaskStore store : task.stores().all()) {
            if (store.changelog() != null) {
                stores.put(store.changelog(), store.committed());
            }
        }
        if (stores.isEmpty()) {
            return;
        }
        task.startRestoring();
        pending.add(task);
        session().add(stores, tp -> {
            Progress p = new Progress(task, tp, storeName(task, tp));
            progress.put(tp, p);
            return p;
        });
    }

    /** The task leaves this thread: its restore stops, and its stores are no longer written. */
    void unregister(Task task) {
        if (pending.remove(task) && session != null) {
            List<TopicPartition> changelogs = new ArrayList<>();
            for (TaskStore store : task.stores().all()) {
                if (store.changelog() != null) {
                    changelogs.add(store.changelog());
                }
            }
            endProgress(task);
            session.remove(changelogs);
        }
    }

    boolean hasPending() {
        return !pending.isEmpty();
    }

    /**
     * Advances the restores for at most {@code budget}, then lets every task whose stores are all
     * restored process. Bounded, so the thread keeps polling its group consumer (well within
     * {@code max.poll.interval.ms}) and processing its ready tasks however large a restore is.
     */
    void restoreSome(Duration budget) {
        if (pending.isEmpty()) {
            return;
        }
        if (!session.isEmpty()) {
            session.step(budget);
        }
        for (Task task : List.copyOf(pending)) {
            boolean done = task.stores().all().stream()
                    .noneMatch(s -> s.changelog() != null && session.isRestoring(s.changelog()));
            if (done) {
                task.finishRestoring();
                pending.remove(task);
                endProgress(task);
            }
        }
    }

    private void endProgress(Task task) {
        for (TaskStore store : task.stores().all()) {
            Progress p = store.changelog() == null ? null : progress.remove(store.changelog());
            if (p != null) {
                p.end();
            }
        }
    }

    @Override
    public void close() {
        progress.values().forEach(Progress::end);
        progress.clear();
        if (session != null) {
            session.close();
            session = null;
        }
        if (consumer != null) {
            consumer.close(Duration.ofSeconds(5));
            consumer = null;
        }
        if (logEndConsumer != null) {
            logEndConsumer.close(Duration.ofSeconds(5));
            logEndConsumer = null;
        }
    }

    private static String storeName(Task task, TopicPartition changelog) {
        for (TaskStore store : task.stores().all()) {
            if (changelog.equals(store.changelog())) {
                return store.name();
            }
        }
        return "?";
    }

    private RestoreSession session() {
        if (session == null) {
            // A store may be ahead of the read_committed end while a dead producer's transaction
            // holds the end back, and a changelog's last transaction may be committed without its
            // markers yet; both resolve within the transaction timeout, so wait that long before
            // concluding the changelog was recreated (and wiping the store) or restoring short of
            // the log end.
            session = new RestoreSession(consumer(), Duration.ofMillis(100),
                    ctx.config().transactionTimeout().plusSeconds(5), this::logEnds);
        }
        return session;
    }

    private KafkaConsumer<byte[], byte[]> consumer() {
        if (consumer == null) {
            consumer = new KafkaConsumer<>(ctx.clients().restoreConsumer(index));
        }
        return consumer;
    }

    /** The log ends (high watermarks) of {@code changelogs}, unresolved transactions included. */
    private Map<TopicPartition, Long> logEnds(Set<TopicPartition> changelogs) {
        if (logEndConsumer == null) {
            Map<String, Object> config = ctx.clients().restoreConsumer(index);
            config.put(ConsumerConfig.CLIENT_ID_CONFIG, config.get(ConsumerConfig.CLIENT_ID_CONFIG) + "-log-end");
            config.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_uncommitted");
            logEndConsumer = new KafkaConsumer<>(config);
        }
        return logEndConsumer.endOffsets(changelogs);
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
        private final Gauge gauge;
        private long total;
        private long lastLog = System.nanoTime();
        private long counted;

        Progress(Task task, TopicPartition tp, String store) {
            this.task = task.id();
            this.tp = tp;
            this.store = store;
            this.what = "store " + store + " of task " + task.id() + " from " + tp;
            this.gauge = Gauge.builder("weir.restore.remaining", left, AtomicLong::get)
                    .description("changelog offsets left to restore into a store").baseUnit("records")
                    .tags(metrics.tags().and("task", task.id().toString(), "store", store))
                    .strongReference(true).register(metrics.registry());
        }

        @Override
        public void onStart(long startOffset, long endOffset) {
            total = Math.max(0, endOffset - startOffset);
            publish(0, total);
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
                log.info("restoring {}: {}% ({} records, {} records/s)", what,
                        total == 0 ? 100 : 100 * (total - offsetsLeft) / total, restoredSoFar,
                        (long) (restoredSoFar / seconds));
            }
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
            metrics.health().restoring(tp.toString(),
                    new ThreadHealth.Restore(task, store, tp.toString(), restoredSoFar, offsetsLeft));
        }

        /** The restore ended or left this thread: its gauge and health entry go. */
        void end() {
            metrics.registry().remove(gauge);
            metrics.health().restored(tp.toString());
        }
    }
}
