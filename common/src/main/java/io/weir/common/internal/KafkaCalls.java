package io.weir.common.internal;

import io.weir.errors.ClusterException;
import java.time.Duration;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * Waits for the answer to a call to Kafka (an admin client's {@code KafkaFuture}, a producer's
 * {@code send}) with a time-out, and turns each way it can fail into one
 * {@link ClusterException} whose message names the operation:
 * <ul>
 *   <li>the cluster answered with an error: {@code "cannot <what>: <error>"}, and the cause is
 *       that error as Kafka gave it (unwrapped from its {@link ExecutionException}), so a caller
 *       can still tell one error from another ({@code getCause() instanceof
 *       TopicExistsException});</li>
 *   <li>no answer in time: {@code "cannot <what>: no answer from the cluster within 30 s"}, the
 *       cause a {@link TimeoutException};</li>
 *   <li>the waiting thread was interrupted: {@code "interrupted while trying to <what>"}, the
 *       cause the {@link InterruptedException}, and the thread's interrupt flag set again.</li>
 * </ul>
 * {@code what} is a verb phrase that finishes "cannot ...": {@code "list the topics"},
 * {@code "describe the consumer group orders"}. The future is not cancelled on a time-out: the
 * client settles it itself.
 */
public final class KafkaCalls {

    private KafkaCalls() {}

    /**
     * The future's value.
     *
     * @throws ClusterException if the call failed, took longer than {@code timeout}, or the wait
     *     was interrupted; its cause tells which (see the class comment)
     */
    public static <T> T get(Future<T> future, Duration timeout, String what) {
        Objects.requireNonNull(future, "future");
        Objects.requireNonNull(what, "what");
        try {
            return future.get(
                    TimeUnit.NANOSECONDS.convert(timeout), TimeUnit.NANOSECONDS); // saturates, never overflows
        } catch (ExecutionException e) {
            Throwable cause = e.getCause() != null ? e.getCause() : e;
            throw new ClusterException("cannot " + what + ": " + describe(cause), cause);
        } catch (TimeoutException e) {
            throw new ClusterException(
                    "cannot " + what + ": no answer from the cluster within " + Deadline.format(timeout), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new ClusterException("interrupted while trying to " + what, e);
        }
    }

    /**
     * The future's value, or empty if the cluster answered that what was asked about does not
     * exist, with an error of type {@code notFound} ({@code GroupIdNotFoundException},
     * {@code UnknownTopicOrPartitionException}); empty too if the value is {@code null}. Not for a
     * {@code Future<Void>}, whose value is {@code null} either way: catch the
     * {@link ClusterException} and look at its cause instead.
     *
     * @throws ClusterException as {@link #get} does, for any other failure
     */
    public static <T> Optional<T> getIfExists(
            Future<T> future, Duration timeout, String what, Class<? extends Throwable> notFound) {
        Objects.requireNonNull(notFound, "notFound");
        try {
            return Optional.ofNullable(get(future, timeout, what));
        } catch (ClusterException e) {
            if (notFound.isInstance(e.getCause())) {
                return Optional.empty();
            }
            throw e;
        }
    }

    /** An error as a message shows it: its simple class name (Kafka's messages can be vague), then its message. */
    static String describe(Throwable error) {
        String message = error.getMessage();
        return error.getClass().getSimpleName() + (message == null || message.isBlank() ? "" : ": " + message);
    }
}
