package io.weir.state.internal;

/**
 * A {@link BytesReader} that can be written, whose writes its own reads see at once: what a typed
 * {@code KeyValueStore} of the framework wraps with serdes. Implemented by {@link PendingStore}
 * (writes held until commit) and {@link TtlStore} (writes stamped with an expiry).
 *
 * <p>Ownership: the arrays passed to {@link #put} belong to the map afterwards; the caller must
 * not modify them (serializers return fresh arrays, so this costs nothing in practice, and saves a
 * copy per write).
 */
public interface BytesMap extends BytesReader {

    /** Sets {@code key} to {@code value}; a {@code null} value deletes the key, as in a changelog. */
    void put(byte[] key, byte[] value);

    /** Deletes {@code key}. */
    void delete(byte[] key);
}
