package io.weir.state.internal;

import java.util.Map;
import java.util.NavigableMap;
import java.util.TreeMap;
import java.util.function.BiConsumer;

/**
 * The write cache of one store of one task: writes since the last commit, held in memory and
 * folded per key, visible to the task's own reads (read-your-writes) and applied to the committed
 * {@link BytesStore} only at commit, atomically with the changelog offset. Compared with Kafka
 * Streams, this is the record cache and the RocksDB write batch in one: nothing reaches the local
 * store before the transaction that changelogs it has committed, so an aborted transaction needs
 * no repair of local state.
 *
 * <p>Guarantees:
 * <ul>
 *   <li>Reads ({@link #get}, {@link #range}, {@link #prefix}, {@link #all}) see the committed store
 *       with the pending writes on top: a pending value wins, a pending delete hides the key.</li>
 *   <li>Repeated writes of a key fold into one pending entry (the last one).</li>
 *   <li>Iterators are snapshots of the pending writes taken when the iterator is created: writes
 *       made while an iterator is open (even of keys in its range) neither break it nor show in it.
 *       The committed part follows the store's own iterator semantics.</li>
 *   <li>{@link #commit} applies all pending writes and the offset in one {@link BytesStore#apply};
 *       if that throws, the pending writes are kept. {@link #abort} drops them.</li>
 * </ul>
 *
 * <p>Threads: not thread-safe; used only by the stream thread that owns the task. Other threads
 * (interactive queries) read the committed store directly.
 */
public final class PendingStore implements BytesMap {

    /** Marks a pending delete; compared by identity, so an empty value is never mistaken for it. */
    static final byte[] TOMBSTONE = new byte[0];
    /** Rough per-entry cost of a TreeMap node and two array headers, for {@link #pendingBytes()}. */
    private static final int ENTRY_OVERHEAD = 80;

    private final BytesStore store;
    private final NavigableMap<byte[], byte[]> pending = new TreeMap<>(ByteKeys.ORDER);
    private long pendingBytes;
    private final ReadCache committedCache;

    /** Pending writes over {@code store}; the store stays owned (and closed) by the caller. */
    public PendingStore(BytesStore store) {
        this(store, 0);
    }

    /**
     * As {@link #PendingStore(BytesStore)}, keeping up to {@code readCacheBytes} of committed
     * entries (those not read lately out first) so hot keys are read from the heap, not the store,
     * in the following commit intervals too.
     */
    public PendingStore(BytesStore store, long readCacheBytes) {
        this.store = store;
        this.committedCache = new ReadCache(readCacheBytes);
    }

    static boolean isTombstone(byte[] value) {
        return value == TOMBSTONE;
    }

    /** The committed store underneath. */
    public BytesStore store() {
        return store;
    }

    @Override
    public void put(byte[] key, byte[] value) {
        if (key == null) {
            throw new NullPointerException("key");
        }
        byte[] stored = value == null ? TOMBSTONE : value;
        byte[] previous = pending.put(key, stored);
        pendingBytes += stored.length - (previous == null ? -key.length - ENTRY_OVERHEAD : previous.length);
    }

    @Override
    public void delete(byte[] key) {
        put(key, null);
    }

    @Override
    public byte[] get(byte[] key) {
        byte[] value = pending.get(key);
        if (value != null) {
            return value == TOMBSTONE ? null : value;
        }
        if (!committedCache.enabled()) {
            return store.get(key);
        }
        byte[] cached = committedCache.get(key);
        if (cached != null) {
            return cached == TOMBSTONE ? null : cached;
        }
        byte[] committed = store.get(key);
        committedCache.put(key, committed == null ? TOMBSTONE : committed);
        return committed;
    }

    @Override
    public BytesIterator range(byte[] from, byte[] to, boolean reverse) {
        if (ByteKeys.isEmptyRange(from, to)) {
            return store.range(from, to, reverse); // empty, but bound to the store's closed state
        }
        return merge(slice(from, true, to, true), store.range(from, to, reverse), reverse);
    }

    @Override
    public BytesIterator prefix(byte[] prefix) {
        byte[] end = ByteKeys.prefixEnd(prefix);
        return merge(slice(prefix, true, end, false), store.prefix(prefix), false);
    }

    /** Committed count plus pending entries; pending deletes are not subtracted (they may be of absent keys). */
    @Override
    public long approximateCount() {
        return store.approximateCount() + pending.size();
    }

    /** The number of pending entries (folded per key, deletes included). */
    public int pendingCount() {
        return pending.size();
    }

    /** An estimate of the heap the pending writes hold, for triggering an early commit. */
    public long pendingBytes() {
        return pendingBytes;
    }

    /**
     * Calls {@code action} with each pending key and its value ({@code null} for a delete), in key
     * order: what the changelog must receive before {@link #commit}.
     */
    public void forEachPending(BiConsumer<byte[], byte[]> action) {
        for (Map.Entry<byte[], byte[]> e : pending.entrySet()) {
            action.accept(e.getKey(), e.getValue() == TOMBSTONE ? null : e.getValue());
        }
    }

    /**
     * Applies the pending writes to the committed store together with {@code changelogOffset}
     * (the offset after the last changelog record sent for them) in one atomic write, then clears
     * them. With nothing pending it still records the offset.
     */
    public void commit(long changelogOffset) {
        WriteBatch batch = new WriteBatch(pending.size());
        forEachPending(batch::put);
        store.apply(batch, changelogOffset);
        if (committedCache.enabled()) {
            // What was just committed is what the store now holds. Keys read before their write
            // are cached already and take the new value; writes of keys never read do not push
            // read keys out.
            for (Map.Entry<byte[], byte[]> e : pending.entrySet()) {
                committedCache.replaceIfPresent(e.getKey(), e.getValue());
            }
        }
        abort();
    }

    /**
     * Deletes the committed entries with {@code from <= key < toExclusive} at once, bypassing the
     * pending writes and the changelog, and forgets them in the read cache; see
     * {@link #dropCommitted}.
     */
    public void dropCommittedRange(byte[] from, byte[] toExclusive) {
        dropCommitted(new WriteBatch(1).deleteRange(from, toExclusive));
    }

    /**
     * Deletes committed entries at once, bypassing the pending writes and the changelog: applies
     * {@code deletes} (point and range deletes only) to the committed store in one atomic write
     * that leaves its changelog offset unchanged ({@link BytesStore#applyDeletes}), and forgets
     * the deleted keys in the read cache. For local clean-up the changelog need not carry (windows
     * past their retention: the changelog topic has a time retention of its own).
     *
     * <p>Contract: no pending write may fall on a deleted key or in a deleted range, since the
     * next commit would bring it back (or, for a delete, log what is already gone); call it right
     * after {@link #commit} or when nothing is pending there.
     *
     * @throws IllegalStateException    if a pending write falls on a deleted key or in a deleted
     *                                  range; nothing is deleted then
     * @throws IllegalArgumentException if {@code deletes} holds a put
     */
    public void dropCommitted(WriteBatch deletes) {
        if (!deletes.isDeletesOnly()) {
            throw new IllegalArgumentException("dropCommitted takes deletes only; store '" + store.name() + "'");
        }
        int n = deletes.size();
        if (n == 0) {
            return;
        }
        if (!pending.isEmpty()) {
            for (int i = 0; i < n; i++) {
                byte[] end = deletes.rangeEnd(i);
                boolean touched = end == null
                        ? pending.containsKey(deletes.key(i))
                        : !pending.subMap(deletes.key(i), true, end, false).isEmpty();
                if (touched) {
                    throw new IllegalStateException("store '" + store.name() + "' has pending writes in the"
                            + " committed entries to drop; drop them only after a commit");
                }
            }
        }
        store.applyDeletes(deletes);
        if (committedCache.enabled()) {
            for (int i = 0; i < n; i++) {
                byte[] end = deletes.rangeEnd(i);
                if (end == null) {
                    committedCache.remove(deletes.key(i));
                } else {
                    committedCache.removeRange(deletes.key(i), end);
                }
            }
        }
    }

    /** Drops the pending writes; reads see the committed store again. */
    public void abort() {
        pending.clear();
        pendingBytes = 0;
    }

    private NavigableMap<byte[], byte[]> slice(byte[] from, boolean fromInclusive, byte[] to, boolean toInclusive) {
        if (from != null && to != null) {
            return pending.subMap(from, fromInclusive, to, toInclusive);
        }
        if (from != null) {
            return pending.tailMap(from, fromInclusive);
        }
        return to != null ? pending.headMap(to, toInclusive) : pending;
    }

    /** Copies the pending slice into arrays (a snapshot), in iteration order, and merges it with the store. */
    private static BytesIterator merge(NavigableMap<byte[], byte[]> slice, BytesIterator committed, boolean reverse) {
        NavigableMap<byte[], byte[]> ordered = reverse ? slice.descendingMap() : slice;
        int n = ordered.size();
        byte[][] keys = new byte[n][];
        byte[][] values = new byte[n][];
        int i = 0;
        for (Map.Entry<byte[], byte[]> e : ordered.entrySet()) {
            keys[i] = e.getKey();
            values[i] = e.getValue();
            i++;
        }
        return new MergingIterator(keys, values, committed, reverse);
    }
}
