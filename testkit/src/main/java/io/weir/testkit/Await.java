package io.weir.testkit;

import io.weir.common.internal.Poll;
import java.time.Duration;
import java.util.function.Supplier;

/**
 * Polls a condition until it holds or a deadline passes. Used instead of sleeping for a guessed
 * time: the wait ends as soon as the condition is true, and a failure says what was awaited.
 */
final class Await {

    /** A condition; exceptions count as "not yet", except {@link GiveUp} which ends the wait. */
    @FunctionalInterface
    interface Check {
        boolean holds() throws Exception;
    }

    /** Thrown from a {@link Check} when waiting longer cannot help (e.g. the process died). */
    static final class GiveUp extends RuntimeException {
        GiveUp(String message) {
            super(message);
        }
    }

    /** The polling interval, not a guess at how long work takes. */
    private static final Duration POLL = Duration.ofMillis(50);

    private Await() {}

    /**
     * Returns once {@code check} holds; throws {@link IllegalStateException} with the last
     * exception the check threw as cause when {@code timeout} passes first.
     */
    static void until(Duration timeout, Supplier<String> description, Check check) {
        Exception[] last = {null};
        boolean held;
        try {
            held = Poll.until(
                    () -> {
                        try {
                            return check.holds();
                        } catch (GiveUp | InterruptedException e) {
                            throw new Stop(e);
                        } catch (Exception e) {
                            last[0] = e;
                            return false;
                        }
                    },
                    timeout,
                    POLL);
        } catch (Stop stop) {
            if (stop.getCause() instanceof GiveUp giveUp) {
                throw new IllegalStateException(description.get() + ": " + giveUp.getMessage(), giveUp);
            }
            throw interrupted(description, stop.getCause());
        } catch (InterruptedException e) {
            throw interrupted(description, e);
        }
        if (!held) {
            throw new IllegalStateException(
                    description.get() + ": not reached within " + timeout.toMillis() + " ms", last[0]);
        }
    }

    private static IllegalStateException interrupted(Supplier<String> description, Throwable e) {
        Thread.currentThread().interrupt();
        return new IllegalStateException("Interrupted while waiting for " + description.get(), e);
    }

    /** Carries what ends the wait out of the condition, which may throw no checked exception. */
    private static final class Stop extends RuntimeException {
        Stop(Exception cause) {
            super(cause);
        }
    }
}
