package io.weir.internal.task;

/**
 * What the DSL's own processors may ask of their context beyond the public
 * {@link io.weir.processor.ProcessorContext}; every context the runtime hands out implements it.
 */
public interface InternalContext {

    /**
     * Reports the input record being processed as later than the allowed lateness of a window of
     * {@code operator}: it goes to the late-records topic (or is counted and dropped).
     */
    void reportLate(String operator, long windowStart, long windowEnd);

    /**
     * True while the instance is further behind its inputs than {@code early.results.max.lag.records}
     * (records its tasks have buffered or still on the brokers, over all its tasks: see
     * {@link Backlog}): results that only say how things stand now (early window results) are
     * stale the moment they are written, and writing them would take time from catching up.
     */
    boolean behind();

    /** The names of this processor's children, in the order {@code forward} visits them. */
    java.util.List<String> childNames();

    /**
     * True if records are traced (the application gave an OpenTelemetry SDK): an operator that
     * emits a result later than the record that made it may then keep that record's headers, to
     * pass its trace context on with {@link #withTraceContext}. Constant for the task's life.
     */
    default boolean traced() {
        return false;
    }

    /** {@code onto} with the trace context headers of {@code from} (W3C {@code traceparent}, ...). */
    default io.weir.processor.Headers withTraceContext(io.weir.processor.Headers onto, io.weir.processor.Headers from) {
        return onto;
    }

    /** What an asynchronous step ({@link AsyncStep}) needs from its task. */
    default AsyncHost asyncHost() {
        throw new IllegalStateException("asynchronous steps run in a task's context only");
    }
}
