package io.weir.state.internal;

import java.nio.ByteBuffer;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Committed entries of one store kept on the heap, least recently used out first, within a byte
 * budget. It only ever holds what the committed store holds (filled from reads of it and from
 * commits into it), so commits never need to invalidate it; only deletes that bypass the pending
 * writes ({@link PendingStore#dropCommitted}) do, with {@link #remove} and {@link #removeRange}.
 * A value may be the {@link PendingStore} tombstone, recording that the key is absent. Not
 * thread-safe: owned by the store's task.
 */
final class ReadCache {

    /** Rough per-entry cost: map node, key wrapper, array headers. */
    private static final int ENTRY_OVERHEAD = 112;

    private final long maxBytes;
    private final LinkedHashMap<ByteBuffer, byte[]> entries = new LinkedHashMap<>(16, 0.75f, true);
    private long bytes;

    ReadCache(long maxBytes) {
        this.maxBytes = maxBytes;
    }

    boolean enabled() {
        return maxBytes > 0;
    }

    byte[] get(byte[] key) {
        return entries.get(ByteBuffer.wrap(key));
    }

    void put(byte[] key, byte[] value) {
        byte[] previous = entries.put(ByteBuffer.wrap(key), value);
        bytes += value.length + (previous == null ? key.length + ENTRY_OVERHEAD : -previous.length);
        if (bytes > maxBytes) {
            var it = entries.entrySet().iterator();
            while (bytes > maxBytes && it.hasNext()) {
                Map.Entry<ByteBuffer, byte[]> eldest = it.next();
                bytes -= eldest.getKey().remaining() + eldest.getValue().length + ENTRY_OVERHEAD;
                it.remove();
            }
        }
    }

    /** Replaces the value of a cached key; a key not cached stays out (no eviction for it). */
    void replaceIfPresent(byte[] key, byte[] value) {
        ByteBuffer k = ByteBuffer.wrap(key);
        byte[] previous = entries.get(k);
        if (previous != null) {
            entries.put(k, value);
            bytes += value.length - previous.length;
        }
    }

    /** Forgets {@code key}. */
    void remove(byte[] key) {
        byte[] previous = entries.remove(ByteBuffer.wrap(key));
        if (previous != null) {
            bytes -= key.length + previous.length + ENTRY_OVERHEAD;
        }
    }

    /** Forgets every key {@code k} with {@code from <= k < toExclusive}; walks the whole cache. */
    void removeRange(byte[] from, byte[] toExclusive) {
        if (entries.isEmpty()) {
            return;
        }
        var it = entries.entrySet().iterator();
        while (it.hasNext()) {
            Map.Entry<ByteBuffer, byte[]> e = it.next();
            byte[] key = e.getKey().array();
            if (ByteKeys.compare(key, from) >= 0 && ByteKeys.compare(key, toExclusive) < 0) {
                bytes -= key.length + e.getValue().length + ENTRY_OVERHEAD;
                it.remove();
            }
        }
    }

    long bytes() {
        return bytes;
    }
}
