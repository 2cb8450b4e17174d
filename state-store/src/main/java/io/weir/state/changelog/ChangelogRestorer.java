package io.weir.state.changelog;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.OptionalLong;
import java.util.Set;

import org.apache.kafka.clients.consumer.Consumer;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.common.TopicPartition;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.weir.state.internal.BytesStore;
import io.weir.state.internal.WriteBatch;

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
 * <p>Threads: one restore at a time per instance (the consumer is not thread-safe). The call
 * blocks until done; {@code consumer.wakeup()} from another thread ends it with a
 * {@link org.apache.kafka.common.errors.WakeupException}, leaving the store consistent at its last
 * applied batch.
 */
public final class ChangelogRestorer {

    private static final Logger log = LoggerFactory.getLogger(ChangelogRestorer.class);
    private static final Duration END_OFFSET_RECHECK = Duration.ofMillis(200);

    private final Consumer<byte[], byte[]> consumer;
    private final Duration pollTimeout;
    private final Duration endOffsetGrace;

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
        this.consumer = consumer;
        this.pollTimeout = pollTimeout;
        this.endOffsetGrace = endOffsetGrace;
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
     * Restores several stores at once, each from its own changelog partition: one consumer fetches
     * all the partitions together (the broker serves them in parallel, and no partition waits
     * behind another's long poll), and each store's batches are applied on its own applier
     * thread. Returns the records applied per partition.
     */
    public Map<TopicPartition, Long> restoreAll(Map<TopicPartition, BytesStore> stores,
                                                Function<TopicPartition, RestoreListener> listeners) {
        long started = System.nanoTime();
        Map<TopicPartition, Long> restored = new HashMap<>();
        if (stores.isEmpty()) {
            return restored;
        }
        consumer.assign(stores.keySet());
        Map<TopicPartition, Long> begins = consumer.beginningOffsets(stores.keySet());
        Map<TopicPartition, Long> ends = consumer.endOffsets(stores.keySet());
        // Valid positions and nothing fetched until each partition's start is known: a poll while
        // waiting for an end offset must neither fetch nor trip over a missing position.
        begins.forEach(consumer::seek);
        consumer.pause(stores.keySet());
        Map<TopicPartition, Progress> active = new HashMap<>();
        for (Map.Entry<TopicPartition, BytesStore> e : stores.entrySet()) {
            TopicPartition tp = e.getKey();
            BytesStore store = e.getValue();
            long begin = begins.get(tp);
            long end = ends.get(tp);
            long start = startOffset(tp, store, begin);
            if (start > end) {
                end = awaitEndOffset(tp, start, end);
                if (start > end) {
                    log.warn("Store '{}': stored changelog offset {} is beyond the end {} of {} (topic recreated?); "
                            + "wiping the store and restoring from the beginning", store.name(), start, end, tp);
                    store.clear();
                    start = begin;
                }
            }
            RestoreListener listener = listeners.apply(tp);
            listener.onStart(start, end);
            restored.put(tp, 0L);
            if (start < end) {
                consumer.seek(tp, start);
                active.put(tp, new Progress(tp, store, listener, start, end));
            } else {
                listener.onDone(0, (System.nanoTime() - started) / 1_000_000);
            }
        }
        consumer.resume(active.keySet());
        try {
            copy(active, restored, started);
        } finally {
            active.values().forEach(p -> p.applier.close());
        }
        return restored;
    }

    /** One partition under restore: its store, its end, and the batches on their way to the store. */
    private static final class Progress {
        final TopicPartition tp;
        final BytesStore store;
        final RestoreListener listener;
        final long start;
        final long end;
        final BatchApplier applier;
        final long[] applied = {0};
        WriteBatch batch = new WriteBatch(1024);
        long queued;
        long appliedOffset;

        Progress(TopicPartition tp, BytesStore store, RestoreListener listener, long start, long end) {
            this.tp = tp;
            this.store = store;
            this.listener = listener;
            this.start = start;
            this.end = end;
            this.applier = new BatchApplier(store);
            this.appliedOffset = start;
        }
    }

    /**
     * Polls until every partition's position reaches its end, one store batch per partition and
     * poll; batches are applied on the stores' applier threads while the next poll runs.
     */
    private void copy(Map<TopicPartition, Progress> active, Map<TopicPartition, Long> restored, long started) {
        Map<TopicPartition, Progress> running = new HashMap<>(active);
        while (!running.isEmpty()) {
            ConsumerRecords<byte[], byte[]> records = consumer.poll(pollTimeout);
            List<TopicPartition> done = new ArrayList<>();
            for (Progress p : running.values()) {
                List<ConsumerRecord<byte[], byte[]>> list = records.records(p.tp);
                for (int i = 0, n = list.size(); i < n; i++) {
                    ConsumerRecord<byte[], byte[]> record = list.get(i);
                    if (record.key() == null) {
                        log.warn("Store '{}': skipping a changelog record without key at {}-{}",
                                p.store.name(), p.tp, record.offset());
                        continue;
                    }
                    p.batch.put(record.key(), record.value());
                }
                long position = consumer.position(p.tp);
                // Apply also when only markers or aborted records were passed, so the stored offset
                // moves past them and the next restore does not read them again.
                if (!p.batch.isEmpty() || position > p.appliedOffset) {
                    p.queued += p.batch.size();
                    long soFar = p.queued;
                    long remaining = Math.max(0, p.end - position);
                    p.batch = p.applier.submit(p.batch, position, () -> {
                        p.applied[0] = soFar;
                        p.listener.onBatch(soFar, remaining);
                    });
                    p.appliedOffset = position;
                }
                if (position >= p.end) {
                    done.add(p.tp);
                }
            }
            for (TopicPartition tp : done) {
                Progress p = running.remove(tp);
                consumer.pause(List.of(tp));
                p.applier.drain();
                long millis = (System.nanoTime() - started) / 1_000_000;
                restored.put(tp, p.applied[0]);
                log.info("Store '{}': restored {} records from {} (offsets {} to {}) in {} ms",
                        p.store.name(), p.applied[0], tp, p.start, p.end, millis);
                p.listener.onDone(p.applied[0], millis);
            }
        }
    }

    /** Where to start: the stored offset, or the beginning for a new store or one the log has outrun. */
    private static long startOffset(TopicPartition changelog, BytesStore store, long begin) {
        OptionalLong stored = store.changelogOffset();
        if (stored.isEmpty()) {
            return begin;
        }
        long offset = stored.getAsLong();
        if (offset < begin) {
            log.warn("Store '{}': stored changelog offset {} is before the first offset {} of {} "
                    + "(records it had not seen were deleted); wiping the store and restoring from the beginning",
                    store.name(), offset, begin, changelog);
            store.clear();
            return begin;
        }
        return offset;
    }

    private long awaitEndOffset(TopicPartition changelog, long stored, long end) {
        long deadline = System.nanoTime() + endOffsetGrace.toNanos();
        // Every partition is paused here, so a poll fetches nothing: it waits, and stays
        // interruptible by wakeup().
        while (end < stored && System.nanoTime() - deadline < 0) {
            consumer.poll(END_OFFSET_RECHECK);
            end = endOffset(changelog);
        }
        return end;
    }

    private long endOffset(TopicPartition changelog) {
        Map<TopicPartition, Long> ends = consumer.endOffsets(Set.of(changelog));
        return ends.get(changelog);
    }
}
