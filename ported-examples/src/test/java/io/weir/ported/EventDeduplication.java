package io.weir.ported;

import io.weir.Topology;
import io.weir.TopologyBuilder;
import io.weir.processor.Processor;
import io.weir.processor.ProcessorContext;
import io.weir.processor.Record;
import io.weir.processor.Stores;
import io.weir.serde.Serdes;
import io.weir.state.KeyValueIterator;
import io.weir.state.WindowStore;
import io.weir.state.Windowed;
import java.time.Duration;
import java.util.function.BiFunction;

/**
 * The application of Confluent's {@code EventDeduplicationLambdaIntegrationTest}: a hand-written
 * processor (the processor API inside a DSL stream) that drops an event whose id it has seen within
 * the last 10 minutes around its time, remembering ids in a window store by event time.
 */
final class EventDeduplication {

    static final String INPUT = "inputTopic";
    static final String OUTPUT = "outputTopic";
    static final String STORE = "eventId-store";
    static final Duration WINDOW = Duration.ofMinutes(10);

    private EventDeduplication() {}

    /**
     * Forwards the first record of each id; a repeat within half the window before or after a
     * remembered time is dropped, and moves the remembered time up so that a steady stream of
     * repeats keeps the id from expiring.
     */
    static final class Deduplicate<K, V> implements Processor<K, V, K, V> {
        private final BiFunction<K, V, String> idOf;
        private final long before;
        private final long after;
        private ProcessorContext<K, V> context;
        private WindowStore<String, Long> seen;

        Deduplicate(Duration window, BiFunction<K, V, String> idOf) {
            this.idOf = idOf;
            this.before = window.toMillis() / 2;
            this.after = window.toMillis() - before;
        }

        @Override
        public void init(ProcessorContext<K, V> context) {
            this.context = context;
            this.seen = context.getStateStore(STORE);
        }

        @Override
        public void process(Record<K, V> record) {
            String id = idOf.apply(record.key(), record.value());
            if (id == null) {
                context.forward(record);
                return;
            }
            boolean repeat;
            try (KeyValueIterator<Windowed<String>, Long> near =
                    seen.fetch(id, record.timestamp() - before, record.timestamp() + after)) {
                repeat = near.hasNext();
            }
            seen.put(id, record.timestamp(), record.timestamp());
            if (!repeat) {
                context.forward(record);
            }
        }
    }

    static Topology topology() {
        TopologyBuilder b = new TopologyBuilder();
        b.addStateStore(Stores.windowStore(STORE, Serdes.strings(), Serdes.longs(), WINDOW, WINDOW));
        b.stream(Serdes.bytes(), Serdes.strings(), INPUT)
                .process(() -> new Deduplicate<byte[], String>(WINDOW, (key, value) -> value), "deduplicate", STORE)
                .to(OUTPUT, Serdes.bytes(), Serdes.strings());
        return b.build();
    }
}
