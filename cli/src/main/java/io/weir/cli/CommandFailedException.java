package io.weir.cli;

/**
 * An operation that failed or was refused for a reason the user can act on (a group with live
 * members, a missing savepoint, a topic that does not exist): {@link Weir} prints its message as
 * one line and exits {@value Weir#FAILED}, without a stack trace.
 */
final class CommandFailedException extends RuntimeException {

    CommandFailedException(String message) {
        super(message);
    }

    CommandFailedException(String message, Throwable cause) {
        super(message, cause);
    }
}
