package io.weir.internal.operator.async;

import io.weir.dsl.AsyncFunction;
import io.weir.processor.AsyncCall;
import io.weir.processor.ProcessorContext;
import io.weir.processor.Record;
import java.util.concurrent.CompletionStage;

/** The DSL's steps: {@code mapValuesAsync}, {@code flatMapValuesAsync}, {@code filterAsync}. */
final class FunctionStep<K, V, R> implements StepLogic<K, V, R> {

    /** What a finished call forwards: its result as the value, each value of its iterable, or the record if true. */
    enum Emit {
        VALUE,
        VALUES,
        IF_TRUE
    }

    private final AsyncFunction<? super K, ? super V, ? extends R> function;
    private final Emit emit;

    FunctionStep(AsyncFunction<? super K, ? super V, ? extends R> function, Emit emit) {
        this.function = function;
        this.emit = emit;
    }

    @Override
    public CompletionStage<? extends R> call(Record<K, V> record, AsyncCall call) {
        return function.apply(record.key(), record.value(), call);
    }

    @Override
    public void complete(Record<K, V> r, R result, ProcessorContext<Object, Object> context) {
        switch (emit) {
            case VALUE -> context.forward(r.withValue(result));
            case VALUES -> {
                if (result != null) {
                    for (Object v : (Iterable<?>) result) {
                        context.forward(r.withValue(v));
                    }
                }
            }
            case IF_TRUE -> {
                if (Boolean.TRUE.equals(result)) {
                    context.forward(r);
                }
            }
        }
    }
}
