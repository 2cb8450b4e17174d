package io.weir.testdriver.internal;

import io.weir.config.WeirConfig;
import io.weir.internal.state.LocalStores;
import io.weir.state.rocksdb.RocksDbResources;
import io.weir.state.rocksdb.RocksDbStore;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.function.LongSupplier;

/**
 * Where the driver's tasks keep their stores: in memory, or in RocksDB in a temporary directory
 * with its own memory budget ({@code rocksdb.memory.bytes}), deleted by {@link #close()}.
 */
final class DriverStorage implements AutoCloseable {

    private final LocalStores localStores;
    /** Null in memory. */
    private final Path dir;
    /** Null in memory. */
    private final RocksDbResources rocksDb;

    private DriverStorage(LocalStores localStores, Path dir, RocksDbResources rocksDb) {
        this.localStores = localStores;
        this.dir = dir;
        this.rocksDb = rocksDb;
    }

    /** In memory, or RocksDB in a new temporary directory; nothing is left behind if this fails. */
    static DriverStorage create(WeirConfig config, boolean inMemory, LongSupplier wallClock) {
        LocalStores localStores = new LocalStores(wallClock);
        if (inMemory) {
            return new DriverStorage(localStores, null, null);
        }
        Path dir = null;
        try {
            dir = Files.createTempDirectory("weir-test-driver-");
            return new DriverStorage(
                    localStores,
                    dir,
                    RocksDbResources.create(RocksDbResources.Config.ofTotalBytes(config.rocksDbMemoryBytes())));
        } catch (IOException | RuntimeException e) {
            if (dir != null) {
                RocksDbStore.deleteRecursively(dir);
            }
            if (e instanceof IOException) {
                throw new IllegalStateException("cannot create a temporary state directory: " + e, e);
            }
            throw (RuntimeException) e;
        }
    }

    LocalStores localStores() {
        return localStores;
    }

    /** The instance directory the tasks' RocksDB stores live under; a placeholder in memory. */
    Path dir() {
        return dir != null ? dir : Path.of("in-memory");
    }

    /** Null in memory. */
    RocksDbResources rocksDb() {
        return rocksDb;
    }

    /** Frees RocksDB's memory and deletes the directory; after the stores are closed. */
    @Override
    public void close() {
        if (rocksDb != null) {
            rocksDb.close(); // after the stores: the cache must outlive every store using it
        }
        if (dir != null) {
            RocksDbStore.deleteRecursively(dir);
        }
    }
}
