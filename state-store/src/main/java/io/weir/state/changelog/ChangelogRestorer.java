package io.weir.state.changelog;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.Set;

import org.apache.kafka.clients.consumer.Consumer;
import org.apache.kafka.clients.consumer.ConsumerRecord;
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
        long started = System.nanoTime();
        consumer.assign(List.of(changelog));
        long begin = consumer.beginningOffsets(Set.of(changelog)).get(changelog);
        long end = endOffset(changelog);
        long start = startOffset(changelog, store, begin);
        if (start > end) {
            end = awaitEndOffset(changelog, start, end);
            if (start > end) {
                log.warn("Store '{}': stored changelog offset {} is beyond the end {} of {} (topic recreated?); "
                        + "wiping the store and restoring from the beginning", store.name(), start, end, changelog);
                store.clear();
                start = begin;
            }
        }
        listener.onStart(start, end);
        long restored = start < end ? copy(changelog, store, start, end, listener) : 0;
        long millis = (System.nanoTime() - started) / 1_000_000;
        if (restored > 0 || start < end) {
            log.info("Store '{}': restored {} records from {} (offsets {} to {}) in {} ms",
                    store.name(), restored, changelog, start, end, millis);
        }
        listener.onDone(restored, millis);
        return restored;
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
        // Paused, a poll fetches nothing: it waits, and stays interruptible by wakeup(). A valid
        // position keeps a consumer without offset reset policy from failing on the poll.
        consumer.seek(changelog, end);
        consumer.pause(List.of(changelog));
        try {
            while (end < stored && System.nanoTime() - deadline < 0) {
                consumer.poll(END_OFFSET_RECHECK);
                end = endOffset(changelog);
            }
        } finally {
            consumer.resume(List.of(changelog));
        }
        return end;
    }

    private long endOffset(TopicPartition changelog) {
        Map<TopicPartition, Long> ends = consumer.endOffsets(Set.of(changelog));
        return ends.get(changelog);
    }

    /**
     * Polls from {@code start} until the position reaches {@code end}, one store batch per poll;
     * batches are applied on a second thread while the next poll runs, the last one before return.
     */
    private long copy(TopicPartition changelog, BytesStore store, long start, long end, RestoreListener listener) {
        consumer.seek(changelog, start);
        long[] restored = {0};
        long queued = 0;
        long position = start;
        long applied = start;
        WriteBatch batch = new WriteBatch(1024);
        try (BatchApplier applier = new BatchApplier(store)) {
            while (position < end) {
                List<ConsumerRecord<byte[], byte[]>> records = consumer.poll(pollTimeout).records(changelog);
                for (int i = 0, n = records.size(); i < n; i++) {
                    ConsumerRecord<byte[], byte[]> record = records.get(i);
                    if (record.key() == null) {
                        log.warn("Store '{}': skipping a changelog record without key at {}-{}",
                                store.name(), changelog, record.offset());
                        continue;
                    }
                    batch.put(record.key(), record.value());
                }
                position = consumer.position(changelog);
                // Apply also when only markers or aborted records were passed, so the stored offset
                // moves past them and the next restore does not read them again.
                if (!batch.isEmpty() || position > applied) {
                    queued += batch.size();
                    long soFar = queued;
                    long remaining = Math.max(0, end - position);
                    batch = applier.submit(batch, position, () -> {
                        restored[0] = soFar;
                        listener.onBatch(soFar, remaining);
                    });
                    applied = position;
                }
            }
            applier.drain();
        }
        return restored[0];
    }
}
