package io.weir.state.rocksdb;

import java.util.concurrent.atomic.AtomicInteger;
import org.rocksdb.Cache;
import org.rocksdb.LRUCache;
import org.rocksdb.RocksDB;
import org.rocksdb.WriteBufferManager;

/**
 * The memory every {@link RocksDbStore} of a process shares, so that off-heap use is bounded per
 * process, not per store (Kafka Streams' default gives each store its own cache and memtables,
 * and memory grows with the number of tasks). One LRU block cache holds data, index and filter
 * blocks; a {@link WriteBufferManager} charges the memtables of all stores to that same cache and
 * makes RocksDB flush the largest memtable when they exceed their share.
 *
 * <p>Guarantees: create one per application (the composition root does), pass it to every store,
 * and close it last: {@link #close()} throws {@link IllegalStateException} while a store opened
 * with it is still open, because freeing the cache under an open database would crash the JVM.
 * Thread-safe.
 */
public final class RocksDbResources implements AutoCloseable {

    static {
        RocksDB.loadLibrary();
    }

    /**
     * Memory settings.
     *
     * @param totalBytes          block cache capacity, which also holds the memtables: the bound on
     *                            RocksDB's memory for all stores of the process (iterator-pinned
     *                            blocks and table readers aside)
     * @param writeBufferShare    the share of {@code totalBytes} memtables may use before the
     *                            largest is flushed, in (0, 1)
     * @param highPriorityShare   the share of the cache reserved for index and filter blocks, which
     *                            are evicted last, in [0, 1)
     * @param strictCapacityLimit when true the cache never exceeds {@code totalBytes}: a block that
     *                            does not fit because everything else is pinned fails the read
     *                            (rare: memtables take at most their share). When false the cache
     *                            may overshoot briefly instead.
     */
    public record Config(
            long totalBytes, double writeBufferShare, double highPriorityShare, boolean strictCapacityLimit) {

        /** 256 MiB in total, half for memtables, 10% kept for index and filter blocks, strict. */
        public static final Config DEFAULT = new Config(256L << 20, 0.5, 0.1, true);

        public Config {
            if (totalBytes < (8L << 20)) {
                throw new IllegalArgumentException("totalBytes must be at least 8 MiB: " + totalBytes);
            }
            if (!(writeBufferShare > 0 && writeBufferShare < 1)) {
                throw new IllegalArgumentException("writeBufferShare must be in (0, 1): " + writeBufferShare);
            }
            if (!(highPriorityShare >= 0 && highPriorityShare < 1)) {
                throw new IllegalArgumentException("highPriorityShare must be in [0, 1): " + highPriorityShare);
            }
        }

        /** {@link #DEFAULT} with another total. */
        public static Config ofTotalBytes(long totalBytes) {
            return new Config(
                    totalBytes, DEFAULT.writeBufferShare, DEFAULT.highPriorityShare, DEFAULT.strictCapacityLimit);
        }
    }

    private final Config config;
    private final LRUCache cache;
    private final WriteBufferManager writeBufferManager;
    private final AtomicInteger openStores = new AtomicInteger();
    private boolean closed;

    private RocksDbResources(Config config) {
        this.config = config;
        this.cache = new LRUCache(config.totalBytes(), -1, config.strictCapacityLimit(), config.highPriorityShare());
        this.writeBufferManager =
                new WriteBufferManager((long) (config.totalBytes() * config.writeBufferShare()), cache);
    }

    /** Resources with {@link Config#DEFAULT}. */
    public static RocksDbResources create() {
        return create(Config.DEFAULT);
    }

    public static RocksDbResources create(Config config) {
        return new RocksDbResources(config);
    }

    public Config config() {
        return config;
    }

    /**
     * Bytes currently held in the shared cache (blocks and charged memtables); 0 once closed.
     * Synchronised with {@link #close()}: a metrics scrape on another thread must never read a
     * freed native cache.
     */
    public synchronized long usage() {
        return closed ? 0 : cache.getUsage();
    }

    Cache cache() {
        return cache;
    }

    WriteBufferManager writeBufferManager() {
        return writeBufferManager;
    }

    synchronized void acquire() {
        if (closed) {
            throw new IllegalStateException("RocksDbResources are closed");
        }
        openStores.incrementAndGet();
    }

    void release() {
        openStores.decrementAndGet();
    }

    /** Frees the cache and write buffer manager. Idempotent. */
    @Override
    public synchronized void close() {
        if (closed) {
            return;
        }
        int open = openStores.get();
        if (open > 0) {
            throw new IllegalStateException(open + " RocksDB store(s) still open; close them before their resources");
        }
        closed = true;
        writeBufferManager.close();
        cache.close();
    }
}
