package io.weir.query;

/**
 * A query that cannot be answered as asked: the request was wrong (a 400 or 404 from the
 * instance: an unknown store, a key the store's serde cannot read, a store of another kind), or
 * no instance answered within the client's deadline ({@link #unavailable()}).
 */
public class QueryException extends RuntimeException {

    private final int status;
    private final String error;

    public QueryException(int status, String error, String message) {
        super(message);
        this.status = status;
        this.error = error;
    }

    /** The HTTP status of the last answer; 0 if no instance answered at all. */
    public int status() {
        return status;
    }

    /** The error word of the answer ({@code unknown_store}, {@code bad_request}, {@code unavailable}...). */
    public String error() {
        return error;
    }

    /** True if the query was fine but no instance could answer it in time: retrying later may work. */
    public boolean unavailable() {
        return status == 503 || status == 0;
    }
}
