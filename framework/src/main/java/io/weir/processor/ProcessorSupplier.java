package io.weir.processor;

/** Makes a new {@link Processor} for each task; must return a new instance on every call. */
@FunctionalInterface
public interface ProcessorSupplier<KIn, VIn, KOut, VOut> {

    Processor<KIn, VIn, KOut, VOut> get();
}
