package io.weir.internal.task;

import org.apache.kafka.clients.consumer.ConsumerRecord;

/**
 * What an {@link AsyncStep} needs from its task beyond a processor's context: the input record a
 * call comes from, how to forward a result as if that record were being processed, and where a
 * failed call goes.
 *
 * <p>Threading: the task's stream thread only.
 */
public interface AsyncHost {

    /** Wakes the stream thread when a call finishes on another thread. */
    AsyncSignal signal();

    /** The calls of the step named {@code step} over the whole instance. */
    InstanceCalls.Counts instanceCalls(String step);

    /** The meters of the step named {@code step} on this thread. */
    AsyncMeters.Step meters(String step);

    /** The task's input record being processed now; null outside processing. */
    ConsumerRecord<byte[], byte[]> input();

    /**
     * Runs {@code work} (forwarding a finished call's result) with {@code origin} as the input
     * record being processed: late records and failures downstream are reported as it.
     */
    void runFor(ConsumerRecord<byte[], byte[]> origin, Runnable work);

    /**
     * Hands {@code origin} to the error handler: its call in {@code step} failed for good
     * ({@link Stage#CALL}); it is dead-lettered or skipped, or the application stops.
     */
    void deadLetter(ConsumerRecord<byte[], byte[]> origin, String step, Throwable error);

    /**
     * Reports a failure downstream of the step while forwarding {@code origin}'s result, as any
     * processing failure (in {@code step}, unless a node below it threw): dead-lettered or skipped, or under exactly-once the uncommitted work is aborted
     * (this throws) and replayed, or the application stops ({@code error.mode=fail}).
     */
    void failed(ConsumerRecord<byte[], byte[]> origin, String step, Throwable error);
}
