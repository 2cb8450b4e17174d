package io.weir.errors;

/**
 * A store, or an iterator of a store, was used after the store was closed: typically an
 * interactive query racing a rebalance that moved the store's task away. Retrying on the instance
 * that now hosts the store is the usual answer.
 */
public class StoreClosedException extends StateStoreException {

    private static final long serialVersionUID = 1L;

    public StoreClosedException(String storeName) {
        super("Store '" + storeName + "' is closed");
    }
}
