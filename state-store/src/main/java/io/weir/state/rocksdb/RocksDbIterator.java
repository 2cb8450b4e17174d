package io.weir.state.rocksdb;

import io.weir.common.KeyValue;
import io.weir.state.internal.BytesIterator;
import java.util.NoSuchElementException;
import org.rocksdb.ColumnFamilyHandle;
import org.rocksdb.ReadOptions;
import org.rocksdb.RocksDB;
import org.rocksdb.RocksDBException;
import org.rocksdb.RocksIterator;
import org.rocksdb.Slice;

/**
 * A RocksDB iterator with its read options and bound slices, all native and all freed together,
 * by {@link #close()} or by the store's close, whichever comes first. Every call holds the store's
 * read lock, so the store cannot free them mid-call.
 */
final class RocksDbIterator implements BytesIterator {

    private final CloseGuard guard;
    private final RocksIterator it;
    private final ReadOptions readOptions;
    private final Slice lower;
    private final Slice upper;
    private final boolean reverse;
    private byte[] peekedKey;
    private boolean closed;
    private boolean released;

    private RocksDbIterator(
            CloseGuard guard, RocksIterator it, ReadOptions readOptions, Slice lower, Slice upper, boolean reverse) {
        this.guard = guard;
        this.it = it;
        this.readOptions = readOptions;
        this.lower = lower;
        this.upper = upper;
        this.reverse = reverse;
    }

    /** Iterates keys in [{@code lower}, {@code upperExclusive}); null bounds are open. */
    static RocksDbIterator open(
            CloseGuard guard,
            RocksDB db,
            ColumnFamilyHandle family,
            byte[] lower,
            byte[] upperExclusive,
            boolean reverse) {
        ReadOptions readOptions = new ReadOptions();
        // Bounds let RocksDB stop at the range's end instead of stepping over deleted keys past it.
        Slice lowerSlice = lower == null ? null : new Slice(lower);
        Slice upperSlice = upperExclusive == null ? null : new Slice(upperExclusive);
        if (lowerSlice != null) {
            readOptions.setIterateLowerBound(lowerSlice);
        }
        if (upperSlice != null) {
            readOptions.setIterateUpperBound(upperSlice);
        }
        RocksIterator it = db.newIterator(family, readOptions);
        // With bounds set, SeekToFirst/SeekToLast stay within them.
        if (reverse) {
            it.seekToLast();
        } else {
            it.seekToFirst();
        }
        return new RocksDbIterator(guard, it, readOptions, lowerSlice, upperSlice, reverse);
    }

    @Override
    public boolean hasNext() {
        long stamp = enter();
        try {
            return valid();
        } finally {
            guard.unlockRead(stamp);
        }
    }

    @Override
    public KeyValue<byte[], byte[]> next() {
        long stamp = enter();
        try {
            if (!valid()) {
                throw new NoSuchElementException();
            }
            byte[] key = peekedKey != null ? peekedKey : it.key();
            byte[] value = it.value();
            peekedKey = null;
            if (reverse) {
                it.prev();
            } else {
                it.next();
            }
            return new KeyValue<>(key, value);
        } finally {
            guard.unlockRead(stamp);
        }
    }

    @Override
    public byte[] peekNextKey() {
        long stamp = enter();
        try {
            if (!valid()) {
                throw new NoSuchElementException();
            }
            if (peekedKey == null) {
                peekedKey = it.key();
            }
            return peekedKey;
        } finally {
            guard.unlockRead(stamp);
        }
    }

    @Override
    public void close() {
        long stamp = guard.readLockEvenIfClosed();
        try {
            closed = true;
            if (!guard.isClosed()) {
                releaseNative();
                guard.forget(this);
            }
        } finally {
            guard.unlockRead(stamp);
        }
    }

    /** Frees the native objects; idempotent. Called under the store's read or write lock. */
    void releaseNative() {
        if (!released) {
            released = true;
            it.close();
            readOptions.close();
            if (lower != null) {
                lower.close();
            }
            if (upper != null) {
                upper.close();
            }
        }
    }

    private long enter() {
        long stamp = guard.readLock(); // throws StoreClosedException once the store is closed
        if (closed) {
            guard.unlockRead(stamp);
            throw new IllegalStateException("Iterator is closed");
        }
        return stamp;
    }

    /** Whether the iterator is on an entry; surfaces a read error instead of ending early. */
    private boolean valid() {
        if (it.isValid()) {
            return true;
        }
        try {
            it.status();
        } catch (RocksDBException e) {
            throw RocksDbErrors.onAccess(guard.storeName(), "iterate", e);
        }
        return false;
    }
}
