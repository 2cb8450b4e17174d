package io.weir.processor;

import java.time.Duration;

/**
 * What a {@link Processor} can do besides computing: forward records to the next steps, schedule
 * wall-clock work, and learn where it runs.
 *
 * <p>A context belongs to one processor instance in one task and may only be used from the
 * thread that calls the processor.
 */
public interface ProcessorContext<K, V> {

    /** Passes a record to every child of this processor, synchronously. */
    void forward(Record<? extends K, ? extends V> record);

    /** Passes a record to the child with this name only. */
    void forward(Record<? extends K, ? extends V> record, String childName);

    /**
     * Calls {@code punctuator} every {@code interval} of wall-clock time, on the task's thread,
     * between records. Records forwarded from it are part of the current commit interval.
     */
    Cancellable schedule(Duration interval, Punctuator punctuator);

    /**
     * A state store this processor was connected to, for example a
     * {@link io.weir.state.KeyValueStore}. Reads see this task's writes at once; writes become
     * durable with the next commit (under exactly-once, atomically with the outputs and offsets).
     *
     * @throws IllegalArgumentException if the processor was not connected to a store of that name
     */
    <S> S getStateStore(String name);

    TaskId taskId();

    String applicationId();

    /** The wall-clock time, milliseconds since the epoch. */
    long currentWallClockTime();
}
