package io.weir.internal.task;

/**
 * A processor whose work completes later, off the stream thread (the DSL's asynchronous steps).
 * Its task drives it: it takes no record while the step is {@linkplain #full() full}, applies
 * finished calls on the stream thread ({@link #complete()}), and holds its watermark at the
 * oldest record still in flight ({@link #oldestInFlight()}).
 *
 * <p>Threading: every method is called by the task's stream thread.
 */
public interface AsyncStep {

    /**
     * Applies the calls that finished since the last call: forwards their results downstream (or
     * dead-letters them, or retries them), starts the calls they held back.
     *
     * @return how many records left the step (forwarded, filtered out or dead-lettered)
     */
    int complete();

    /** True if a call finished (or a retry fell due) and {@link #complete()} has work. */
    boolean ready();

    /** True at the in-flight bound: the task takes no record until a call completes. */
    boolean full();

    /** Calls in flight or waiting for their key's turn. */
    int inFlight();

    /** The step's name. */
    String name();

    /**
     * Since when (nanoTime) calls have been in flight with none of them finishing; {@code
     * Long.MAX_VALUE} while none is in flight.
     */
    long waitingSinceNanos();

    /** The smallest timestamp of a record in flight; {@code Long.MAX_VALUE} if none. */
    long oldestInFlight();
}
