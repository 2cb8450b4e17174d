package io.weir.docs.state;

import io.weir.processor.Processor;
import io.weir.processor.ProcessorContext;
import io.weir.processor.Record;
import io.weir.state.KeyValueStore;

// docs/state.md: a processor that uses a key-value store.
// tag::dedup[]
final class Dedup implements Processor<String, String, String, String> {
    private ProcessorContext<String, String> context;
    private KeyValueStore<String, Long> seen;

    @Override
    public void init(ProcessorContext<String, String> context) {
        this.context = context;
        this.seen = context.getStateStore("seen");
    }

    @Override
    public void process(Record<String, String> record) {
        if (seen.putIfAbsent(record.key(), record.timestamp()) == null) { // a key not seen within the TTL
            context.forward(record);
        }
    }
}
// end::dedup[]
