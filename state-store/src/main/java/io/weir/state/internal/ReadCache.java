package io.weir.state.internal;

import java.nio.ByteBuffer;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Committed entries of one store kept on the heap, least recently used out first, within a byte
 * budget. It only ever holds what the committed store holds (filled from reads of it and from
 * commits into it), so it never needs invalidating; a value may be the {@link PendingStore}
 * tombstone, recording that the key is absent. Not thread-safe: owned by the store's task.
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

    long bytes() {
        return bytes;
    }
}
