package io.weir.processor;

/** Makes one {@link AsyncProcessor} per task; each call must return a new instance. */
@FunctionalInterface
public interface AsyncProcessorSupplier<KIn, VIn, KOut, VOut, R> {

    AsyncProcessor<KIn, VIn, KOut, VOut, R> get();
}
