package io.weir.internal.task;

import io.weir.processor.ErrorHandler;
import io.weir.processor.ErrorResponse;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Asks the application's {@link ErrorHandler} what a failed record does. A handler that throws or
 * answers {@code null} must not lose the record: that counts as {@link ErrorResponse#fail()}, with
 * an ERROR line naming the handler and the record.
 *
 * <p>Stateless apart from the handler; called on stream threads.
 */
public final class ErrorDecisions {

    private static final Logger log = LoggerFactory.getLogger(ErrorDecisions.class);

    private final ErrorHandler handler;

    public ErrorDecisions(ErrorHandler handler) {
        this.handler = java.util.Objects.requireNonNull(handler, "handler");
    }

    /**
     * A decision, and what a FAIL names as the reason the application stops (the setting, or the
     * handler).
     */
    public record Decision(ErrorResponse response, String whyFail) {}

    /** The handler's decision for {@code failure}; FAIL if the handler itself failed. */
    public Decision decide(RecordFailure failure) {
        ErrorResponse response;
        try {
            response = handler.handle(failure.toFailedRecord());
        } catch (RuntimeException | Error e) {
            log.error(
                    "the error handler {} threw while deciding on {}; failing rather than losing the record",
                    name(),
                    where(failure),
                    e);
            return new Decision(ErrorResponse.fail(), "the error handler " + name() + " threw " + e);
        }
        if (response == null) {
            log.error(
                    "the error handler {} returned null for {}; failing rather than losing the record",
                    name(),
                    where(failure));
            return new Decision(ErrorResponse.fail(), "the error handler " + name() + " returned null");
        }
        return new Decision(response, whyFail());
    }

    /** How logs and errors name the handler: its class, or {@code error.mode=...} for the defaults. */
    public String name() {
        String s = handler.toString();
        return s.startsWith("error.mode=") ? s : handler.getClass().getName();
    }

    private String whyFail() {
        String name = name();
        return name.startsWith("error.mode=") ? name : "the error handler " + name + " decided FAIL";
    }

    private static String where(RecordFailure f) {
        return f.record().topic() + "-" + f.record().partition() + "@"
                + f.record().offset() + " (" + f.stage().label + (f.node().isEmpty() ? "" : " in '" + f.node() + "'")
                + ": " + f.error() + ")";
    }
}
