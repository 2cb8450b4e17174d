package io.weir.processor;

import java.util.Objects;

/**
 * An {@link ErrorHandler}'s decision for one failed record: the action, and for
 * {@link Action#DEAD_LETTER} the headers to add to the dead-letter record (after the input's own
 * headers and before Weir's {@code weir.error.*} and {@code weir.source.*} headers, which always
 * come last, so a reader taking the last value of a key gets Weir's).
 *
 * @param action  what happens to the record
 * @param headers extra dead-letter headers; empty for the other actions
 */
public record ErrorResponse(Action action, Headers headers) {

    /** What a failed record's failure does. */
    public enum Action {
        /** Skip the record and go on (Kafka Streams' {@code CONTINUE}); counted, not written anywhere. */
        CONTINUE,
        /** Stop the application, as {@code error.mode=fail} does. */
        FAIL,
        /** Write the input record, unchanged, to the dead-letter topic and go on. */
        DEAD_LETTER
    }

    private static final ErrorResponse SKIP = new ErrorResponse(Action.CONTINUE, Headers.empty());
    private static final ErrorResponse FAIL = new ErrorResponse(Action.FAIL, Headers.empty());
    private static final ErrorResponse DEAD_LETTER = new ErrorResponse(Action.DEAD_LETTER, Headers.empty());

    public ErrorResponse {
        Objects.requireNonNull(action, "action");
        Objects.requireNonNull(headers, "headers");
        if (action != Action.DEAD_LETTER && !headers.isEmpty()) {
            throw new IllegalArgumentException("only a dead letter carries headers, not " + action);
        }
    }

    /** {@link Action#CONTINUE}: skip the record. */
    public static ErrorResponse skip() {
        return SKIP;
    }

    /** {@link Action#FAIL}: stop the application. */
    public static ErrorResponse fail() {
        return FAIL;
    }

    /** {@link Action#DEAD_LETTER} with Weir's headers only. */
    public static ErrorResponse deadLetter() {
        return DEAD_LETTER;
    }

    /** {@link Action#DEAD_LETTER} with {@code extra} headers as well. */
    public static ErrorResponse deadLetter(Headers extra) {
        return new ErrorResponse(Action.DEAD_LETTER, extra);
    }
}
