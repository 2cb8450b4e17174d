package io.weir.state.internal;

import java.util.Optional;
import java.util.OptionalLong;

/**
 * The committed, local copy of one store of one task: the bytes layer under every typed store,
 * implemented by {@code RocksDbStore} and {@code MemoryStore}. It is changed only in whole
 * batches, each stored together with the changelog offset it reached, so the store always knows
 * where in its changelog it stands.
 *
 * <p>Guarantees:
 * <ul>
 *   <li>Keys are ordered by {@link ByteKeys#ORDER} (unsigned lexicographic bytes).</li>
 *   <li>{@link #apply} writes a batch and its changelog offset in one atomic write: readers and,
 *       for a persistent store, a restart after a crash see either all of it or none of it, and
 *       never data ahead of the stored offset.</li>
 *   <li>Iterators must be closed. {@link #close()} closes any still open; afterwards every method
 *       of the store and of its iterators throws {@link io.weir.errors.StoreClosedException}, and no
 *       native memory is left behind.</li>
 * </ul>
 *
 * <p>Threads: one writer (the stream thread that owns the task, or the restorer) calls
 * {@link #apply}, {@link #applyDeletes}, {@link #deleteRange} and {@link #clear}; any number of threads may read concurrently (interactive
 * queries); {@link #close()} may race with readers safely.
 */
public interface BytesStore extends BytesReader, AutoCloseable {

    /** The store's name. */
    String name();

    /**
     * Applies {@code changes} in order (a later write of a key wins; a {@code null} value deletes;
     * a {@linkplain WriteBatch#deleteRange range delete} deletes its range) and records
     * {@code changelogOffset} with them, atomically.
     *
     * @param changelogOffset the next changelog offset to restore from once these changes are in
     *                        the store (the offset after the last changelog record they contain);
     *                        not negative
     */
    void apply(WriteBatch changes, long changelogOffset);

    /**
     * Loads {@code changes} as a bulk load where the store has one (RocksDB: the last write of each
     * key written into a sorted file and ingested, no memtable, no flush), else as {@link #apply}.
     * For a restore far behind its changelog: large batches, only puts and point deletes.
     *
     * <p>Unlike {@link #apply}, the entries and the offset are not written atomically: the entries
     * first, then the offset. A crash in between leaves a store whose entries are ahead of its
     * stored offset. That is safe for a store restored from a changelog, and only for one: replaying
     * the changelog from the stored offset writes every key changed since to its last value, so
     * the store ends exact at the changelog's end.
     *
     * @throws IllegalArgumentException if the batch holds a range delete
     */
    default void ingest(WriteBatch changes, long changelogOffset) {
        if (changes.hasRangeDeletes()) {
            throw new IllegalArgumentException("a bulk load takes no range deletes; store '" + name() + "'");
        }
        apply(changes, changelogOffset);
    }

    /**
     * The offset stored with the last applied batch: where a restore of this store resumes in its
     * changelog. Empty for a new (or {@linkplain #clear() cleared}) store.
     */
    OptionalLong changelogOffset();

    /**
     * Applies a batch of deletes (point and {@linkplain WriteBatch#deleteRange range} deletes) in
     * one atomic write, leaving the stored {@linkplain #changelogOffset() changelog offset}
     * unchanged: for dropping data locally that the changelog does not (need to) know about, such
     * as windows past their retention. Iterators opened before follow the store's iterator
     * semantics (a RocksDB iterator keeps seeing its snapshot).
     *
     * @throws IllegalArgumentException if the batch holds a put
     */
    void applyDeletes(WriteBatch deletes);

    /**
     * Deletes every entry with {@code from <= key < toExclusive} in one atomic write, leaving the
     * stored changelog offset unchanged, as {@link #applyDeletes} of that one range. An empty range
     * ({@code from >= toExclusive}) changes nothing. For RocksDB this is one range tombstone, so
     * its cost does not grow with the number of entries deleted.
     */
    default void deleteRange(byte[] from, byte[] toExclusive) {
        applyDeletes(new WriteBatch(1).deleteRange(from, toExclusive));
    }

    /**
     * The id of the changelog topic that the stored {@linkplain #changelogOffset() offset} refers
     * to (Kafka's topic id, as text), if one was recorded: a changelog deleted and recreated under
     * the same name has a new id, and offsets into the old one mean nothing in the new one. Empty
     * for a new or {@linkplain #clear() cleared} store, and for a store written before ids were
     * recorded.
     */
    Optional<String> changelogTopicId();

    /**
     * Records the id of the changelog topic the store follows from now on (see
     * {@link #changelogTopicId()}). Like a batch, it becomes durable with the store's next flush.
     */
    void recordChangelogTopicId(String topicId);

    /** Deletes every entry, the stored changelog offset and topic id, atomically; the store stays open. */
    void clear();

    /**
     * Starts making what was applied so far durable on local disk, without waiting. Stores that
     * keep no write-ahead log lose unflushed batches when the process dies; flushing now and then
     * bounds the changelog tail a restart must replay. A no-op for stores that are not on disk.
     */
    default void flushAsync() {}

    /** Closes the store and its open iterators. Idempotent. */
    @Override
    void close();

    /** Closes the store and deletes its files, if it has any. */
    void destroy();
}
