package io.weir.internal.operator.async;

import io.weir.processor.AsyncCall;
import io.weir.processor.ProcessorContext;
import io.weir.processor.Record;
import java.util.concurrent.CompletionStage;

/**
 * What an asynchronous step does for each record, apart from the machinery all steps share
 * ({@link AsyncStepProcessor}: order, bound, time-outs, retries, the store of calls in flight):
 * the call it makes, and what a finished call forwards. Every method runs on the stream thread.
 */
interface StepLogic<K, V, R> {

    default void init(ProcessorContext<Object, Object> context) {}

    /** Starts the call for {@code record}; must not block. */
    CompletionStage<? extends R> call(Record<K, V> record, AsyncCall call);

    /** The call finished with {@code result}: forward what it gives downstream through {@code context}. */
    void complete(Record<K, V> record, R result, ProcessorContext<Object, Object> context);

    default void close() {}
}
