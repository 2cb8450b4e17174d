package io.weir.state.changelog;

import io.weir.state.internal.BytesStore;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;
import org.apache.kafka.clients.consumer.Consumer;
import org.apache.kafka.common.TopicPartition;

/**
 * Brings a store up to date from its changelog partition before its task starts processing: reads
 * from the offset stored in the store (or the beginning) up to the end offset seen when the
 * restore starts, and applies each poll's records as one {@link BytesStore#apply} with the
 * consumer's position, so an interrupted restore resumes where it stopped. A record with a
 * {@code null} value deletes its key. Batches are applied on a helper thread while the next poll
 * runs (see {@code BatchApplier}), one at a time and in order; progress is reported on the
 * calling thread once a batch is in the store.
 *
 * <p>The consumer should be {@code read_committed} (only committed changes may reach a store), in
 * assign mode, and is used for one partition at a time: {@link #restore} assigns it exactly the
 * store's partition. A large {@code max.poll.records} and {@code fetch.max.bytes} make batches,
 * and therefore restore, faster; they are the caller's choice. With {@code read_committed} the
 * end offset is the last stable offset, and the consumer's position also steps over transaction
 * markers and aborted records, which are never returned: the restore loops until the position
 * reaches the end offset, not until it has seen a record just below it.
 *
 * <p>If the stored offset is before the partition's first offset or after its end (the topic was
 * recreated, or compaction or retention removed what the store had not yet seen), the store is
 * wiped and restored from the beginning, and a warning says so. An offset after the end can also
 * mean that an open transaction of a dead producer holds the end back; {@code endOffsetGrace}
 * waits that long for the end to reach the stored offset before concluding the store must be wiped
 * (set it to the producers' {@code transaction.timeout.ms} plus a margin to never wipe in that case).
 *
 * <p>Given the partitions' log ends (see the four-argument constructor), a restore that starts
 * while a transaction on the changelog is unresolved (its commit markers not yet written, right
 * after the previous owner's {@code commitTransaction()}) waits, up to {@code endOffsetGrace}, for
 * it to be resolved, and so includes a transaction that was just committed (see
 * {@link RestoreSession}). Without them, the restore ends at the read_committed end seen at the
 * start, as {@code endOffsets} of the consumer returns it.
 *
 * <p>Threads: one restore at a time per instance (the consumer is not thread-safe). The call
 * blocks until done; {@code consumer.wakeup()} from another thread ends it with a
 * {@link org.apache.kafka.common.errors.WakeupException}, leaving the store consistent at its last
 * applied batch.
 */
public final class ChangelogRestorer {

    private final Consumer<byte[], byte[]> consumer;
    private final Duration pollTimeout;
    private final Duration endOffsetGrace;
    private final Function<Set<TopicPartition>, Map<TopicPartition, Long>> logEnds;

    /** A restorer polling with a 100 ms timeout that wipes at once when the stored offset is past the end. */
    public ChangelogRestorer(Consumer<byte[], byte[]> consumer) {
        this(consumer, Duration.ofMillis(100), Duration.ZERO);
    }

    /**
     * @param consumer       a read_committed consumer, used in assign mode
     * @param pollTimeout    the timeout of each poll
     * @param endOffsetGrace how long to wait for the end offset to reach a stored offset beyond it
     *                       before wiping the store
     */
    public ChangelogRestorer(Consumer<byte[], byte[]> consumer, Duration pollTimeout, Duration endOffsetGrace) {
        this(consumer, pollTimeout, endOffsetGrace, consumer::endOffsets);
    }

    /**
     * A restorer that also waits for unresolved transactions on a changelog partition.
     *
     * @param consumer       a read_committed consumer, used in assign mode
     * @param pollTimeout    the timeout of each poll
     * @param endOffsetGrace how long to wait for the end offset to reach a stored offset beyond it
     *                       before wiping the store, or to reach the log end before finishing short
     *                       of it
     * @param logEnds        the log end of each given partition, as a read_uncommitted consumer's
     *                       {@code endOffsets} returns it; called on the restoring thread
     */
    public ChangelogRestorer(
            Consumer<byte[], byte[]> consumer,
            Duration pollTimeout,
            Duration endOffsetGrace,
            Function<Set<TopicPartition>, Map<TopicPartition, Long>> logEnds) {
        this.consumer = consumer;
        this.pollTimeout = pollTimeout;
        this.endOffsetGrace = endOffsetGrace;
        this.logEnds = logEnds;
    }

    /**
     * Restores {@code store} from {@code changelog}; returns the number of records applied
     * (deletes included). On return, {@code store.changelogOffset()} is at least the end offset
     * observed at the start (unless the changelog was empty and the store new).
     */
    public long restore(TopicPartition changelog, BytesStore store, RestoreListener listener) {
        return restoreAll(Map.of(changelog, store), tp -> listener).get(changelog);
    }

    /**
     * Restores several stores at once, each from its own changelog partition, until all are done;
     * see {@link RestoreSession} for how. Returns the records applied per partition.
     */
    public Map<TopicPartition, Long> restoreAll(
            Map<TopicPartition, BytesStore> stores, Function<TopicPartition, RestoreListener> listeners) {
        Map<TopicPartition, Long> restored = new HashMap<>();
        stores.keySet().forEach(tp -> restored.put(tp, 0L));
        try (RestoreSession session = new RestoreSession(consumer, pollTimeout, endOffsetGrace, logEnds)) {
            session.add(stores, tp -> new RestoreListener() {
                private final RestoreListener delegate = listeners.apply(tp);

                @Override
                public void onStart(long startOffset, long endOffset) {
                    delegate.onStart(startOffset, endOffset);
                }

                @Override
                public void onBatch(long restoredSoFar, long remaining) {
                    delegate.onBatch(restoredSoFar, remaining);
                }

                @Override
                public void onDone(long count, long millis) {
                    restored.put(tp, count);
                    delegate.onDone(count, millis);
                }
            });
            while (!session.isEmpty()) {
                session.step(Duration.ofDays(1));
            }
        }
        return restored;
    }
}
