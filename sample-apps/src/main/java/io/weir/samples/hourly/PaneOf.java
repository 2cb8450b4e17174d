package io.weir.samples.hourly;

import io.weir.processor.Processor;
import io.weir.processor.ProcessorContext;
import io.weir.processor.Record;

/**
 * Puts the {@code weir.pane} header of a windowed count into its value ({@link PaneCount}), keeping
 * the record otherwise unchanged (key, time and headers): the header is visible to processors, not
 * to the DSL's {@code filter} and {@code split} predicates.
 */
final class PaneOf<K> implements Processor<K, Long, K, PaneCount> {

    static final String PANE_HEADER = "weir.pane";

    private ProcessorContext<K, PaneCount> context;

    @Override
    public void init(ProcessorContext<K, PaneCount> context) {
        this.context = context;
    }

    @Override
    public void process(Record<K, Long> record) {
        if (record.value() == null) {
            return; // time windows retract nothing; a null has no count to route
        }
        context.forward(record.withValue(new PaneCount(record.headers().lastString(PANE_HEADER), record.value())));
    }
}
