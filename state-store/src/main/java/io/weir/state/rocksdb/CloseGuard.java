package io.weir.state.rocksdb;

import io.weir.errors.StoreClosedException;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.locks.StampedLock;

/**
 * Keeps a store's native objects alive while anyone uses them: every operation, the store's and
 * its iterators', holds the read lock; {@link #close} takes the write lock, so natives are freed
 * only when no one is inside, and it frees the iterators still open, so no use after close can
 * touch freed memory.
 */
final class CloseGuard {

    private final String storeName;
    /** Read-locked by every operation, write-locked by close: natives are freed only when no one is inside. */
    private final StampedLock lock = new StampedLock();

    private final Set<RocksDbIterator> openIterators = ConcurrentHashMap.newKeySet();
    private volatile boolean closed;

    CloseGuard(String storeName) {
        this.storeName = storeName;
    }

    String storeName() {
        return storeName;
    }

    /** Takes the read lock, or throws if closed (without holding the lock). */
    long readLock() {
        long stamp = lock.readLock();
        if (closed) {
            lock.unlockRead(stamp);
            throw new StoreClosedException(storeName);
        }
        return stamp;
    }

    /** Takes the read lock whether or not the store is closed; for iterator close and background work. */
    long readLockEvenIfClosed() {
        return lock.readLock();
    }

    void unlockRead(long stamp) {
        lock.unlockRead(stamp);
    }

    boolean isClosed() {
        return closed;
    }

    void checkOpen() {
        if (closed) {
            throw new StoreClosedException(storeName);
        }
    }

    void track(RocksDbIterator it) {
        openIterators.add(it);
    }

    void forget(RocksDbIterator it) {
        openIterators.remove(it);
    }

    /**
     * Once, under the write lock: frees the open iterators, then runs {@code release} (the store's
     * natives). Idempotent.
     */
    void close(Runnable release) {
        long stamp = lock.writeLock();
        try {
            if (closed) {
                return;
            }
            closed = true;
            for (RocksDbIterator it : openIterators) {
                it.releaseNative();
            }
            openIterators.clear();
            release.run();
        } finally {
            lock.unlockWrite(stamp);
        }
    }
}
