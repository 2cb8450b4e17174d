package io.weir.state.changelog;

import io.weir.state.internal.BytesStore;
import io.weir.state.internal.WriteBatch;
import java.util.List;
import java.util.OptionalLong;
import java.util.function.LongSupplier;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.TopicPartition;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One partition under restore in a {@link RestoreSession}: its store, its end, and the batches on
 * their way to the store. {@code end} is the read_committed end, {@code target} the log end it must
 * reach (higher while a transaction is unresolved), {@code lastCheck} when {@code end} was last
 * looked up.
 *
 * <p>A store at least {@link RestoreSession.BulkLoad#minRecords} behind its end (a new store, or
 * one far behind) is restored as a bulk load: its records gather into chunks of {@link
 * RestoreSession.BulkLoad#chunkBytes}, each {@linkplain BytesStore#ingest ingested} (RocksDB:
 * sorted into a file and linked in, skipping the memtable, the flush and the compaction of what it
 * replaces) with the consumer's position as the offset. The offset follows the entries, not
 * atomically with them; a crash in between leaves the entries ahead of the offset, which the next
 * restore, replaying from the offset, makes exact. A standby's tail, and any restore closer to its
 * end, keeps the write batches.
 *
 * <p>Threads: the session's thread; the batches are applied on the {@link BatchApplier}'s.
 */
final class PartitionRestore {

    // The session's logger: these messages are the session's, as operators know them.
    private static final Logger log = LoggerFactory.getLogger(RestoreSession.class);

    final TopicPartition tp;
    final BytesStore store;
    final RestoreListener listener;
    final long start;
    long end;
    long target;
    final long started;
    long lastCheck;
    final BatchApplier applier;
    final long[] applied = {0};
    WriteBatch batch = new WriteBatch(1024);
    long queued;
    long appliedOffset;
    /** A source topic's stop offset (the committed input offset), else {@link Long#MAX_VALUE}. */
    long stop = Long.MAX_VALUE;
    /** What enters the store from a source topic; null for a changelog. */
    SourceRecords rows;
    /** Loaded by ingestion, in chunks ({@link RestoreSession.BulkLoad}). */
    boolean bulk;

    int chunks;

    PartitionRestore(
            TopicPartition tp,
            BytesStore store,
            RestoreListener listener,
            long start,
            long end,
            long target,
            long started) {
        this.tp = tp;
        this.store = store;
        this.listener = listener;
        this.start = start;
        this.end = end;
        this.target = target;
        this.started = started;
        this.lastCheck = started;
        this.applier = new BatchApplier(store);
        this.appliedOffset = start;
    }

    /**
     * Where to start: the stored offset, or the beginning for a new store, one the log has outrun,
     * or one beyond {@code stop} (a source topic's committed input offset; else {@link Long#MAX_VALUE}).
     */
    static long startOffset(TopicPartition changelog, BytesStore store, long begin, long stop) {
        if (store.changelogOffset().isPresent() && store.changelogOffset().getAsLong() > stop) {
            // A store cannot be rewound: rebuilt from the beginning up to the committed offset.
            log.info(
                    "Store '{}': it holds {} up to offset {}, beyond the committed input offset {}; rebuilding it"
                            + " from the beginning",
                    store.name(),
                    changelog,
                    store.changelogOffset().getAsLong(),
                    stop);
            store.clear();
        }
        OptionalLong stored = store.changelogOffset();
        if (stored.isEmpty()) {
            return begin;
        }
        long offset = stored.getAsLong();
        if (offset < begin) {
            log.warn(
                    "Store '{}': stored changelog offset {} is before the first offset {} of {} "
                            + "(records it had not seen were deleted); wiping the store and restoring from the beginning",
                    store.name(),
                    offset,
                    begin,
                    changelog);
            store.clear();
            return begin;
        }
        return offset;
    }

    /**
     * Adds one poll's records to the store's batch and hands the batch over.
     *
     * @param consumerPosition the consumer's position on the partition after the poll
     * @param lag              the consumer's lag on the partition (a tail has no target to count from)
     * @param chunkBytes       a bulk load's chunk size
     */
    void copy(List<ConsumerRecord<byte[], byte[]>> records, long consumerPosition, LongSupplier lag, long chunkBytes) {
        for (int i = 0, n = records.size(); i < n; i++) {
            ConsumerRecord<byte[], byte[]> record = records.get(i);
            if (record.offset() >= stop) {
                break; // fetched beyond the committed input offset: the task processes these
            }
            if (rows != null) {
                SourceRecords.Entry entry = rows.entry(record);
                if (entry == null) {
                    listener.onSkipped(record.offset());
                } else {
                    batch.put(entry.key(), entry.value());
                }
                continue;
            }
            if (record.key() == null) {
                log.warn(
                        "Store '{}': skipping a changelog record without key at {}-{}",
                        store.name(),
                        tp,
                        record.offset());
                continue;
            }
            batch.put(record.key(), record.value());
        }
        long position = Math.min(consumerPosition, stop);
        // A bulk load gathers a chunk over several polls; its last one goes once caught up.
        if (bulk && batch.bytes() < chunkBytes && position < end) {
            return;
        }
        // Apply also when only markers or aborted records were passed, so the stored offset moves
        // past them and the next restore does not read them again.
        if (!batch.isEmpty() || position > appliedOffset) {
            queued += batch.size();
            long soFar = queued;
            long remaining = target == Long.MAX_VALUE ? lag.getAsLong() : Math.max(0, target - position);
            boolean bulk = this.bulk;
            long chunk = batch.size();
            if (bulk) {
                chunks++;
            }
            batch = applier.submit(batch, position, bulk, () -> {
                applied[0] = soFar;
                if (bulk) {
                    listener.onIngested(chunk);
                }
                listener.onBatch(soFar, remaining);
            });
            appliedOffset = position;
        }
    }

    /** Waits for the batches in flight, stops the applier and reports the finished restore. */
    void finish() {
        applier.drain();
        applier.close();
        long millis = (System.nanoTime() - started) / 1_000_000;
        log.info(
                "Store '{}': restored {} records from {} (offsets {} to {}) in {} ms{}",
                store.name(),
                applied[0],
                tp,
                start,
                end,
                millis,
                bulk ? " by ingestion, " + chunks + " chunks" : "");
        listener.onDone(applied[0], millis);
    }
}
