package io.weir.state;

import io.weir.common.KeyValue;
import io.weir.errors.StoreClosedException;
import java.util.Iterator;
import java.util.NoSuchElementException;

/**
 * An iterator over the entries of a store, in key order (or reverse key order), that holds
 * resources until it is closed: use it in try-with-resources.
 *
 * <p>Guarantees: entries come in the order the method that returned it promises; every entry has a
 * non-null key and value; {@link #close()} is idempotent and never throws a checked exception.
 * Using an iterator after {@link #close()} throws {@link IllegalStateException}; using it after its
 * store was closed throws {@link StoreClosedException}. Whether an open iterator sees writes made
 * after it was created is said by the store that returned it. Not thread-safe: one thread at a time.
 */
public interface KeyValueIterator<K, V> extends Iterator<KeyValue<K, V>>, AutoCloseable {

    /**
     * The key {@link #next()} would return, without moving.
     *
     * @throws NoSuchElementException if there is no next entry
     */
    K peekNextKey();

    /** Releases the iterator's resources (for RocksDB, native memory). Idempotent. */
    @Override
    void close();
}
