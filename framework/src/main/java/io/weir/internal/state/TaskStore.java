package io.weir.internal.state;

import io.weir.internal.commit.OpenTransaction;
import io.weir.internal.topology.StoreSpec;
import io.weir.serde.Serde;
import io.weir.state.internal.BytesStore;
import io.weir.state.internal.PendingStore;
import io.weir.state.internal.TtlStore;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.LongSupplier;
import org.apache.kafka.clients.producer.Callback;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;

/**
 * One store of one task: the committed bytes store, the pending writes over it (read-your-writes
 * and the write cache that folds repeated updates of a key), an optional TTL view, the typed view
 * processors use, and its changelog partition.
 *
 * <p>Its part in the commit: step 2 sends each pending key once to the changelog (inside the
 * transaction); step 5, after the transaction committed, applies the pending writes to the
 * committed store with the changelog offset they reached, in one atomic write. An abort drops
 * them. So the committed store is never ahead of Kafka, and after a crash it is at a committed
 * state or behind it, never ahead: restore replays only the changelog tail after its offset.
 *
 * <p>Window and session stores take the same path: they are bytes stores with composite keys
 * ({@link WindowKeys}, {@link SessionKeys}) that their typed view encodes, written through the same
 * pending writes and changelog. They add a local clean-up after commits ({@link #dropExpired}).
 *
 * <p>Owned by one stream thread.
 */
public final class TaskStore {

    private static final int TTL_SWEEP_BATCH = 1_000;

    private final StoreSpec spec;
    private final BytesStore committed;
    private final PendingStore pending;
    private final TtlStore ttl;
    /** Drops windows or sessions past their retention; null for a key-value store. */
    private final Expiry expiry;
    /** The typed view processors see: a key-value, window or session store, by the spec's kind. */
    private final Object typed;

    private final TopicPartition changelog;
    /** Highest changelog offset acknowledged since the last commit; written by the producer's thread. */
    private final AtomicLong lastChangelogOffset = new AtomicLong(-1);
    /** What a store whose changelog is its source topic keeps of the topic's records; null otherwise. */
    private io.weir.state.changelog.SourceRecords sourceRecords;

    private final Callback onChangelogAck =
            (metadata, e) -> lastChangelogOffset.accumulateAndGet(metadata.offset(), Math::max);

    /** @param clock the processing clock (epoch ms) that stamps and hides entries of a store with a TTL */
    @SuppressWarnings({"unchecked", "rawtypes"})
    TaskStore(StoreSpec spec, BytesStore committed, TopicPartition changelog, long readCacheBytes, LongSupplier clock) {
        this.spec = spec;
        this.committed = committed;
        this.pending = new PendingStore(committed, readCacheBytes);
        this.ttl = spec.ttl() == null ? null : new TtlStore(pending, spec.ttl(), clock);
        String topic = changelog == null ? spec.name() : changelog.topic();
        Serde keys = spec.keySerde();
        Serde values = spec.valueSerde();
        switch (spec.kind()) {
            case WINDOW -> {
                this.expiry = new WindowExpiry(pending, spec.windowSizeMs(), spec.retentionMs());
                this.typed = new TypedWindowStore(
                        spec.name(), topic, pending, keys, values, spec.windowSizeMs(), expiry::observe);
            }
            case SESSION -> {
                this.expiry = new SessionExpiry(pending, spec.retentionMs());
                this.typed = new TypedSessionStore(spec.name(), topic, pending, keys, values, expiry::observe);
            }
            default -> {
                this.expiry = null;
                this.typed = new TypedKeyValueStore(spec.name(), topic, ttl != null ? ttl : pending, keys, values);
            }
        }
        this.changelog = changelog;
    }

    public String name() {
        return spec.name();
    }

    public StoreSpec spec() {
        return spec;
    }

    /**
     * The typed store processors see: a {@link io.weir.state.KeyValueStore},
     * {@link io.weir.state.WindowStore} or {@link io.weir.state.SessionStore}, by the spec's kind.
     */
    public Object typed() {
        return typed;
    }

    /** The changelog partition, or null when logging is disabled. */
    public TopicPartition changelog() {
        return changelog;
    }

    /**
     * What a store whose changelog is its source topic keeps of the topic's records, for its
     * restore (which stops at the task's committed input offset); null for a store with a
     * changelog of its own.
     */
    public io.weir.state.changelog.SourceRecords sourceRecords() {
        return changelog == null || !spec.changelogIsSource() ? null : sourceRecords;
    }

    void sourceRecords(io.weir.state.changelog.SourceRecords records) {
        this.sourceRecords = records;
    }

    public BytesStore committed() {
        return committed;
    }

    public long pendingBytes() {
        return pending.pendingBytes();
    }

    /** Step 1: delete some expired entries through the pending writes, so the deletes are logged. */
    void sweepExpired(long now) {
        if (ttl == null) {
            return;
        }
        List<byte[]> expired = ttl.expiredKeys(now, TTL_SWEEP_BATCH);
        for (byte[] key : expired) {
            pending.delete(key);
        }
    }

    /**
     * Step 2: each pending key once to the changelog, in the current transaction. Nothing for a
     * store whose changelog is its source topic: the topic already holds what the store took.
     */
    void writeChangelog(OpenTransaction transaction) {
        if (changelog == null || spec.changelogIsSource() || pending.pendingCount() == 0) {
            return;
        }
        pending.forEachPending((key, value) -> transaction.send(
                new ProducerRecord<>(changelog.topic(), changelog.partition(), null, key, value), onChangelogAck));
    }

    /** Step 5 for a store without input offsets to record (its changelog is its own). */
    boolean commit() {
        return commit(java.util.Map.of());
    }

    /**
     * Step 5: the transaction committed; make the committed store match it. True if it wrote.
     *
     * @param inputOffsets the input offsets the transaction committed (next offset to process):
     *                     a store whose changelog is its source topic records its partition's
     *                     offset, so that a restore replays from there up to the committed offset
     */
    boolean commit(java.util.Map<TopicPartition, Long> inputOffsets) {
        if (pending.pendingCount() == 0) {
            return false;
        }
        long last = lastChangelogOffset.getAndSet(-1);
        long offset = changelog == null
                ? committed.changelogOffset().orElse(0L)
                : spec.changelogIsSource()
                        ? inputOffsets.getOrDefault(
                                changelog, committed.changelogOffset().orElse(0L))
                        : last + 1;
        pending.commit(offset);
        return true;
    }

    /**
     * After a commit: drops the windows or sessions past their retention at {@code watermark} from
     * the committed store (see {@link TaskStores#dropExpired}). A no-op for a key-value store.
     * True if it wrote.
     */
    boolean dropExpired(long watermark) {
        return expiry != null && expiry.dropExpired(watermark);
    }

    /** The number of writes waiting for the next commit. */
    int pendingCount() {
        return pending.pendingCount();
    }

    void abort() {
        pending.abort();
        lastChangelogOffset.set(-1);
    }

    void close() {
        pending.abort();
        committed.close();
    }
}
