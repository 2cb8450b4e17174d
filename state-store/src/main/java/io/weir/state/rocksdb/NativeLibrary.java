package io.weir.state.rocksdb;

import org.rocksdb.RocksDB;

/**
 * RocksDB's native library, which {@link RocksDbResources} and every store load on first use. Lets a
 * starting process load it earlier, off its critical path, without initializing those classes (whose
 * initializer would keep a failed load's error as an opaque "could not initialize class").
 */
public final class NativeLibrary {

    private NativeLibrary() {
    }

    /**
     * Loads the library unless it is loaded; returns at once after the first successful call.
     *
     * @throws RuntimeException or {@link UnsatisfiedLinkError} as RocksDB's own loader does, when the
     *     library cannot be extracted or linked on this platform
     */
    public static void load() {
        RocksDB.loadLibrary();
    }
}
