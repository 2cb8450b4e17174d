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
     * Same as {@code schedule(interval, PunctuationType.WALL_CLOCK, punctuator)}.
     */
    default Cancellable schedule(Duration interval, Punctuator punctuator) {
        return schedule(interval, PunctuationType.WALL_CLOCK, punctuator);
    }

    /**
     * Calls {@code punctuator} every {@code interval} of the given clock, on the task's thread,
     * between records. An {@link PunctuationType#EVENT_TIME} schedule fires when the watermark
     * passes a multiple of {@code interval} (epoch aligned), with that multiple as its time; if
     * the watermark jumps several intervals it fires once, with the latest. Records forwarded from
     * it are part of the current transaction; if that aborts, the schedule fires again on replay.
     */
    Cancellable schedule(Duration interval, PunctuationType type, Punctuator punctuator);

    /**
     * A one-shot timer: calls {@code punctuator} once, with {@code time}, when the clock of
     * {@code type} reaches {@code time} (for event time: when the watermark reaches it). Timers of
     * one clock fire in time order. Timers are kept in memory: after a restart or a rebalance,
     * register them again (keep deadlines that matter in a store).
     */
    Cancellable scheduleAt(long time, PunctuationType type, Punctuator punctuator);

    /**
     * The task's watermark: no record with a smaller timestamp is expected any more (records that
     * still come are late). {@code Long.MIN_VALUE} before the task has seen any record.
     */
    long currentWatermark();

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
