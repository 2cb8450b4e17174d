package io.weir.state.rocksdb;

import io.weir.errors.StateStoreException;
import io.weir.errors.StoreCorruptedException;
import io.weir.errors.StoreLockedException;
import java.nio.file.Path;
import java.util.Locale;
import org.rocksdb.RocksDBException;
import org.rocksdb.Status;

/** Turns RocksDB's checked exceptions into the store exceptions the framework acts on. */
final class RocksDbErrors {

    private RocksDbErrors() {}

    /**
     * An error opening {@code dir}: a lock held by another open store is a
     * {@link StoreLockedException} (wiping a live store would be wrong); anything else means the
     * directory cannot serve as this store and is reported as corrupted, to be wiped and restored.
     */
    static StateStoreException onOpen(String store, Path dir, Exception e) {
        String message = String.valueOf(e.getMessage());
        if (isLockError(e, message)) {
            return new StoreLockedException(
                    "Store '" + store + "' at " + dir + " is locked by another open store: " + message, e);
        }
        return new StoreCorruptedException("Cannot open store '" + store + "' at " + dir + ": " + message, e);
    }

    /** An error while the store is open: corruption is reported as such, the rest as failures. */
    static StateStoreException onAccess(String store, String action, RocksDBException e) {
        Status status = e.getStatus();
        String message = "Store '" + store + "' failed to " + action + ": " + e.getMessage();
        if (status != null && status.getCode() == Status.Code.Corruption) {
            return new StoreCorruptedException(message, e);
        }
        return new StateStoreException(message, e);
    }

    private static boolean isLockError(Exception e, String message) {
        if (!(e instanceof RocksDBException)) {
            return false;
        }
        Status status = ((RocksDBException) e).getStatus();
        boolean ioError = status == null || status.getCode() == Status.Code.IOError;
        // RocksDB says "While lock file: <dir>/LOCK: ..." (another process) or "lock hold by
        // current process ..." (this one); "block" in a read error must not count.
        String lower = message.toLowerCase(Locale.ROOT);
        return ioError && (message.contains("/LOCK") || lower.contains("lock file") || lower.contains("lock hold"));
    }
}
