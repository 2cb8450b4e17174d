package io.weir.processor;

/**
 * A step of a topology written by hand. The runtime makes one instance per task (through a
 * {@link ProcessorSupplier}), calls {@link #init} once before the first record, {@link #process}
 * for each record in order, and {@link #close} when the task goes away.
 *
 * <p>All calls for one instance come from one thread. A processor that throws from
 * {@code process} fails that record: under exactly-once the transaction is aborted, so nothing it
 * forwarded becomes visible, and the record goes to the dead-letter topic (or the application
 * stops, if configured to fail).
 */
@FunctionalInterface
public interface Processor<KIn, VIn, KOut, VOut> {

    default void init(ProcessorContext<KOut, VOut> context) {}

    void process(Record<KIn, VIn> record);

    default void close() {}
}
