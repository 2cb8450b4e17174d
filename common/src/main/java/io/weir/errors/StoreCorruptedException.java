package io.weir.errors;

/**
 * A store's files cannot be opened or read because they are damaged or not a store at all. The
 * local copy is lost, but not the state: the caller may delete the store directory and restore
 * the store from its changelog. Never thrown for a directory that another store holds open (that
 * is a plain {@link StateStoreException}, and wiping it would be wrong).
 */
public class StoreCorruptedException extends StateStoreException {

    private static final long serialVersionUID = 1L;

    public StoreCorruptedException(String message, Throwable cause) {
        super(message, cause);
    }
}
