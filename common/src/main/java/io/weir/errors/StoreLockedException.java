package io.weir.errors;

/**
 * A store's directory is held by another open store, in this process or another: for example a
 * task that moved between two threads of one instance before its old thread closed it. Not a
 * corruption: the directory must not be wiped; opening it again once the other holder closed it
 * succeeds.
 */
public class StoreLockedException extends StateStoreException {

    public StoreLockedException(String message, Throwable cause) {
        super(message, cause);
    }
}
