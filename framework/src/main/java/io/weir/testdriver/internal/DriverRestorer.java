package io.weir.testdriver.internal;

import io.micrometer.core.instrument.Counter;
import io.weir.internal.state.TaskStore;
import io.weir.internal.task.ActiveTask;
import io.weir.internal.thread.Restorer;
import io.weir.internal.thread.ThreadMetrics;
import io.weir.state.internal.BytesStore;
import io.weir.state.internal.WriteBatch;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.TopicPartition;

/**
 * The test driver's restores: synchronous, from the driver's in-memory changelog topics, in the
 * step of the loop that follows the assignment. A registered task with logged stores stays paused
 * until the next {@link #finishRestored}, which brings each logged store up to the end of its
 * changelog partition and lets the task process, as the state thread's restore does against
 * Kafka: from the changelog offset stored in the store (or from the beginning for a new store),
 * in batches, each applied with the offset it reached. So an in-memory store comes back whole
 * from its changelog, and a RocksDB store reopened in the driver's directory replays only the
 * tail it has not seen. Restored records count in {@code weir.restore.records}, as on a thread.
 *
 * <p>Threading: the driver's thread only.
 */
public final class DriverRestorer implements Restorer {

    /** Changelog records applied to a store in one write. */
    private static final int BATCH = 1000;

    private final DriverTopics topics;
    private final Counter restored;
    private final Set<ActiveTask> pending = new LinkedHashSet<>();

    DriverRestorer(DriverTopics topics, ThreadMetrics metrics) {
        this.topics = topics;
        this.restored = metrics.restoredRecords();
    }

    @Override
    public void register(ActiveTask task) {
        if (task.stores().all().stream().anyMatch(s -> s.changelog() != null)) {
            task.startRestoring();
            pending.add(task);
        }
    }

    @Override
    public void unregister(ActiveTask task) {
        pending.remove(task);
    }

    @Override
    public boolean hasPending() {
        return !pending.isEmpty();
    }

    /** Restores every registered task's logged stores to the end of their changelogs, and lets them process. */
    @Override
    public void finishRestored() {
        for (ActiveTask task : List.copyOf(pending)) {
            for (TaskStore store : task.stores().all()) {
                if (store.changelog() != null) {
                    restore(store.committed(), store.changelog());
                }
            }
            pending.remove(task);
            task.finishRestoring();
        }
    }

    private void restore(BytesStore store, TopicPartition changelog) {
        long end = topics.endOffset(changelog);
        long offset = store.changelogOffset().orElse(0L);
        if (offset > end) {
            // The driver's topics live as long as its stores, and commits store the topics' offsets.
            throw new IllegalStateException("store '" + store.name() + "' is at changelog offset " + offset
                    + ", beyond the end " + end + " of " + changelog);
        }
        while (offset < end) {
            List<ConsumerRecord<byte[], byte[]>> records = topics.fetch(changelog, offset, BATCH);
            WriteBatch batch = new WriteBatch(records.size());
            for (ConsumerRecord<byte[], byte[]> r : records) {
                if (r.key() != null) { // the state thread skips them too
                    batch.put(r.key(), r.value());
                }
            }
            offset += records.size();
            store.apply(batch, offset);
            restored.increment(batch.size());
        }
    }

    @Override
    public void close() {
        pending.clear();
    }
}
