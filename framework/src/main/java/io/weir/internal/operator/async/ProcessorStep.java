package io.weir.internal.operator.async;

import io.weir.processor.AsyncCall;
import io.weir.processor.AsyncProcessor;
import io.weir.processor.ProcessorContext;
import io.weir.processor.Record;
import java.util.concurrent.CompletionStage;

/** A hand-written {@link AsyncProcessor} as a step: its own call, and its own completion. */
final class ProcessorStep<K, V, R> implements StepLogic<K, V, R> {

    private final AsyncProcessor<K, V, Object, Object, R> processor;

    ProcessorStep(AsyncProcessor<K, V, Object, Object, R> processor) {
        this.processor = processor;
    }

    @Override
    public void init(ProcessorContext<Object, Object> context) {
        processor.init(context);
    }

    @Override
    public CompletionStage<? extends R> call(Record<K, V> record, AsyncCall call) {
        return processor.call(record, call);
    }

    @Override
    public void complete(Record<K, V> record, R result, ProcessorContext<Object, Object> context) {
        processor.complete(record, result);
    }

    @Override
    public void close() {
        processor.close();
    }
}
