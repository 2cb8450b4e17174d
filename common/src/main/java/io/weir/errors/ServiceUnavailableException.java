package io.weir.errors;

/**
 * A service other than Kafka that the application needs to read or write records (a schema
 * registry) could not be reached, or failed, after retries. The record is not at fault, so it is
 * neither dead-lettered nor handed to an error handler: the stream thread aborts its transaction
 * and the instance stops, and a restarted instance takes the record again. The message names the
 * service's address; check that it runs and that the application may reach it.
 *
 * <p>Serdes and user code throw it, directly or as the cause of what they throw (a
 * {@code CompletionException} of an asynchronous call, say). Weir finds it wherever a record
 * fails: reading or writing the record, in a processor, an asynchronous step's call or its
 * completion, a timer, a global table's update, a table's restore from its topic. The instance
 * fails with it; when a record failed, with a {@code ServiceUnavailableException} naming the
 * record, caused by the one thrown.
 */
public class ServiceUnavailableException extends WeirException {

    private static final long serialVersionUID = 1L;

    public ServiceUnavailableException(String message) {
        super(message);
    }

    public ServiceUnavailableException(String message, Throwable cause) {
        super(message, cause);
    }
}
