package io.weir.internal.task;

import io.weir.errors.ServiceUnavailableException;
import io.weir.processor.ErrorHandler;
import io.weir.processor.ErrorResponse;
import java.util.IdentityHashMap;
import java.util.Set;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Asks the application's {@link ErrorHandler} what a failed record does. A handler that throws or
 * answers {@code null} must not lose the record: that counts as {@link ErrorResponse#fail()}, with
 * an ERROR line naming the handler and the record.
 *
 * <p>A failure caused by a {@link ServiceUnavailableException} (a service the records need, such as
 * a schema registry, could not be reached) is not the record's: no handler is asked and nothing is
 * dead-lettered; the failure stops the stream thread, which aborts its transaction, and the instance
 * fails. Every record failure of a stream thread comes here ({@link #decide}); a global table's
 * asks {@link #requireAvailable} before it dead-letters.
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

    /**
     * The handler's decision for {@code failure}; FAIL if the handler itself failed.
     *
     * @throws ServiceUnavailableException if a service the record needs was unavailable, without
     *     asking the handler (see {@link #requireAvailable})
     */
    public Decision decide(RecordFailure failure) {
        requireAvailable(failure.record(), failure.stage(), failure.error());
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

    /**
     * Throws if {@code error} is, or was caused by, a {@link ServiceUnavailableException}: the
     * record is not at fault, so it must be neither skipped nor dead-lettered, and it must not be
     * committed past. The exception thrown names the record, and says the service's address as
     * the cause's message does; the cause is the service's own.
     */
    public static void requireAvailable(ConsumerRecord<byte[], byte[]> record, Stage stage, Throwable error) {
        ServiceUnavailableException unavailable = unavailable(error);
        if (unavailable != null) {
            throw new ServiceUnavailableException(
                    "record " + record.topic() + "-" + record.partition() + "@" + record.offset() + " could not "
                            + stage.label + " because a service it needs is unavailable; nothing was dead-lettered"
                            + " and the instance stops, so that a restart takes the record again: "
                            + unavailable.getMessage(),
                    unavailable);
        }
    }

    /**
     * The {@link ServiceUnavailableException} among {@code error} and its causes (a stage's
     * wrapper, a {@code CompletionException}, a user's own wrapper), or null.
     */
    public static ServiceUnavailableException unavailable(Throwable error) {
        Set<Throwable> seen = java.util.Collections.newSetFromMap(new IdentityHashMap<>());
        for (Throwable t = error; t != null && seen.add(t); t = t.getCause()) {
            if (t instanceof ServiceUnavailableException u) {
                return u;
            }
        }
        return null;
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
