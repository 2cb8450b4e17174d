package io.weir.common.internal;

import java.time.Duration;
import java.util.Objects;
import java.util.Optional;
import java.util.function.BooleanSupplier;
import java.util.function.Predicate;
import java.util.function.Supplier;

/**
 * Asks again and again, a pause apart, until an answer comes or a time-out passes: for what the
 * Kafka clients and the JDK give nothing to wait on (a topic's deletion reaching every broker, a
 * partition's leader, a lock another thread still holds). Each form tries once at once, then after
 * each {@code interval} (shortened so the last try falls on the deadline), and tries at least once
 * even with a zero time-out.
 *
 * <p>Like {@link java.util.concurrent.CountDownLatch#await(long, java.util.concurrent.TimeUnit)},
 * a time-out is an answer, not an error: {@code false} or empty, so that each caller says what did
 * not happen in its own words. An interrupted wait throws {@link InterruptedException} (the
 * interrupt is consumed, as the JDK's waits do); what a try throws ends the wait and goes to the
 * caller, except in {@link #retrying}.
 *
 * <p>For a loop that does more than try and pause (a consumer's poll loop that is its own pause),
 * use a {@link Deadline} instead.
 */
public final class Poll {

    private Poll() {}

    /**
     * Returns {@code true} as soon as {@code condition} holds; {@code false} if it still does not
     * when {@code timeout} has passed.
     */
    public static boolean until(BooleanSupplier condition, Duration timeout, Duration interval)
            throws InterruptedException {
        Objects.requireNonNull(condition, "condition");
        return untilPresent(
                        () -> condition.getAsBoolean() ? Optional.of(Boolean.TRUE) : Optional.empty(),
                        timeout,
                        interval)
                .isPresent();
    }

    /**
     * Returns the first value {@code attempt} gives; empty if it gave none when {@code timeout}
     * has passed.
     */
    public static <T> Optional<T> untilPresent(Supplier<Optional<T>> attempt, Duration timeout, Duration interval)
            throws InterruptedException {
        return untilPresent(attempt, timeout, interval, interval);
    }

    /**
     * As {@link #untilPresent(Supplier, Duration, Duration)}, with a pause that starts at
     * {@code interval} and doubles after each try up to {@code maxInterval}: for asking a server
     * that may be busy (each try costs it a request) rather than reading local state.
     */
    public static <T> Optional<T> untilPresent(
            Supplier<Optional<T>> attempt, Duration timeout, Duration interval, Duration maxInterval)
            throws InterruptedException {
        Objects.requireNonNull(attempt, "attempt");
        Deadline deadline = Deadline.after(timeout);
        requirePositive(interval);
        if (maxInterval.compareTo(interval) < 0) {
            throw new IllegalArgumentException(
                    "a polling interval's maximum " + maxInterval + " is below its start " + interval);
        }
        Duration pause = interval;
        while (true) {
            Optional<T> result = attempt.get();
            if (result.isPresent() || deadline.expired()) {
                return result;
            }
            pause(pause, deadline);
            pause = pause.multipliedBy(2).compareTo(maxInterval) < 0 ? pause.multipliedBy(2) : maxInterval;
        }
    }

    /**
     * Returns what {@code attempt} returns, trying again while it throws an exception that
     * {@code retriable} accepts (a lock still held, a topic not yet known); rethrows that
     * exception once {@code timeout} has passed, and any other at once. {@code retriable} is not
     * asked about the last failure, so it may log each retry.
     */
    public static <T> T retrying(
            Supplier<T> attempt, Predicate<? super RuntimeException> retriable, Duration timeout, Duration interval)
            throws InterruptedException {
        Objects.requireNonNull(attempt, "attempt");
        Objects.requireNonNull(retriable, "retriable");
        Deadline deadline = Deadline.after(timeout);
        requirePositive(interval);
        while (true) {
            try {
                return attempt.get();
            } catch (RuntimeException e) {
                if (deadline.expired() || !retriable.test(e)) {
                    throw e;
                }
            }
            pause(interval, deadline);
        }
    }

    private static void pause(Duration interval, Deadline deadline) throws InterruptedException {
        Duration left = deadline.remaining();
        Thread.sleep(Math.max(1, (interval.compareTo(left) < 0 ? interval : left).toMillis()));
    }

    private static void requirePositive(Duration interval) {
        if (interval.isZero() || interval.isNegative()) {
            throw new IllegalArgumentException("a polling interval must be positive: " + interval);
        }
    }
}
