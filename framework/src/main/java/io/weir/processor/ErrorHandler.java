package io.weir.processor;

/**
 * Decides, per failed record, what a failure does: skip the record ({@link ErrorResponse#skip()},
 * Kafka Streams' {@code CONTINUE}), stop the application ({@link ErrorResponse#fail()}), or write it
 * to the dead-letter topic with the handler's own extra headers ({@link ErrorResponse#deadLetter}).
 * One handler covers what Kafka Streams splits into the deserialization, processing (KIP-1033) and
 * production exception handlers, with KIP-1034's dead-letter records: {@link FailedRecord#stage()}
 * says which failure it is. Registered with {@code WeirConfig.Builder.errorHandler}; without one,
 * the setting {@code error.mode} decides ({@link #deadLetter()} or {@link #fail()}).
 *
 * <p>Guarantees: the handler is asked once per failure of a record, on the stream thread that
 * processes it, and its decision is carried out exactly once under exactly-once: a record that
 * failed after forwarding some outputs has them aborted, and on the replay from the last commit it
 * is skipped or dead-lettered as decided, without asking again (a crash before that commit asks
 * again on the next owner). A skipped record's input offset is committed like any other. A handler
 * that throws, or returns {@code null}, counts as {@link ErrorResponse#fail()}, with a log line
 * naming the handler; the record is never lost. Failures of the transaction itself (a fenced
 * producer, a send the broker refused, a commit that timed out) are not a record's: they never
 * reach the handler, and the work since the last commit is aborted and replayed (or the instance
 * stops on a fatal error) as without a handler. Nor is a failure caused by a
 * {@link io.weir.errors.ServiceUnavailableException} (a service the record needs, such as a schema
 * registry, could not be reached): the handler is not asked, the record is neither skipped nor
 * dead-lettered, the transaction is aborted and the instance stops, whatever the stage.
 *
 * <p>Called on a stream thread: it must be thread-safe if it keeps state, and should be quick (it
 * holds up the thread's other tasks).
 */
@FunctionalInterface
public interface ErrorHandler {

    /** What to do with {@code failed}; never {@code null}. */
    ErrorResponse handle(FailedRecord failed);

    /** {@code error.mode=dead_letter}, the default: every failed record goes to the dead-letter topic. */
    static ErrorHandler deadLetter() {
        return DefaultErrorHandler.DEAD_LETTER;
    }

    /** {@code error.mode=fail}: the first failed record stops the application. */
    static ErrorHandler fail() {
        return DefaultErrorHandler.FAIL;
    }
}
