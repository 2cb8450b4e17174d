package io.weir.docs.processor;

import io.weir.processor.Processor;
import io.weir.processor.ProcessorContext;
import io.weir.processor.Record;
import java.time.Duration;

// docs/processor-api.md: a processor that counts, forwards now and then, and on a schedule.
// tag::counter[]
final class Counter implements Processor<String, String, String, Long> {
    private ProcessorContext<String, Long> context;
    private long count;

    @Override
    public void init(ProcessorContext<String, Long> context) {
        this.context = context;
        context.schedule(Duration.ofSeconds(10), now -> context.forward(new Record<>("count", count, now)));
    }

    @Override
    public void process(Record<String, String> record) {
        count++;
        if (record.headers().lastString("priority") != null) {
            context.forward(record.withValue(count));
        }
    }
}
// end::counter[]
