package io.weir.errors;

/**
 * A store failed: an I/O error, a store directory locked by someone else, an error from the
 * storage engine. Unchecked; the store that threw it should be considered unusable, except where a
 * subclass says otherwise.
 */
public class StateStoreException extends WeirException {

    private static final long serialVersionUID = 1L;

    public StateStoreException(String message) {
        super(message);
    }

    public StateStoreException(String message, Throwable cause) {
        super(message, cause);
    }
}
