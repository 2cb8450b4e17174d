package io.weir.testkit;

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

    private static final long POLL_MILLIS = 50;

    private Await() {
    }

    /**
     * Returns once {@code check} holds; throws {@link IllegalStateException} with the last
     * exception the check threw as cause when {@code timeout} passes first.
     */
    static void until(Duration timeout, Supplier<String> description, Check check) {
        long deadline = System.nanoTime() + timeout.toNanos();
        Exception last = null;
        while (true) {
            try {
                if (check.holds()) {
                    return;
                }
            } catch (GiveUp e) {
                throw new IllegalStateException(description.get() + ": " + e.getMessage(), e);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("Interrupted while waiting for " + description.get(), e);
            } catch (Exception e) {
                last = e;
            }
            if (System.nanoTime() - deadline > 0) {
                throw new IllegalStateException(
                        description.get() + ": not reached within " + timeout.toMillis() + " ms", last);
            }
            pause();
        }
    }

    private static void pause() {
        try {
            Thread.sleep(POLL_MILLIS); // the polling interval, not a guess at how long work takes
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("Interrupted while waiting", e);
        }
    }
}
