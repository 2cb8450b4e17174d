package io.weir.ported;

import io.weir.Topology;
import io.weir.TopologyBuilder;
import io.weir.common.KeyValue;
import io.weir.processor.Processor;
import io.weir.processor.ProcessorContext;
import io.weir.processor.PunctuationType;
import io.weir.processor.Record;
import io.weir.processor.Stores;
import io.weir.serde.Serdes;
import io.weir.state.KeyValueIterator;
import io.weir.state.KeyValueStore;
import java.time.Duration;
import java.util.Locale;

/**
 * Apache Kafka's {@code WordCountProcessorDemo}: word count with the processor API, node by node
 * (source, processor, store, sink). The processor counts each line's words in an in-memory store
 * and, every second of event time, writes every word's count (as text).
 */
final class WordCountProcessor {

    static final String INPUT = "streams-plaintext-input";
    static final String OUTPUT = "streams-wordcount-processor-output";
    static final String STORE = "Counts";

    private WordCountProcessor() {}

    static final class Count implements Processor<String, String, String, String> {
        private KeyValueStore<String, Integer> counts;

        @Override
        public void init(ProcessorContext<String, String> context) {
            counts = context.getStateStore(STORE);
            // Kafka Streams' STREAM_TIME punctuation: as event time passes each second.
            context.schedule(Duration.ofSeconds(1), PunctuationType.EVENT_TIME, time -> {
                try (KeyValueIterator<String, Integer> all = counts.all()) {
                    while (all.hasNext()) {
                        KeyValue<String, Integer> e = all.next();
                        context.forward(new Record<>(e.key(), e.value().toString(), time));
                    }
                }
            });
        }

        @Override
        public void process(Record<String, String> record) {
            for (String word : record.value().toLowerCase(Locale.ROOT).split("\\W+")) {
                Integer before = counts.get(word);
                counts.put(word, before == null ? 1 : before + 1);
            }
        }
    }

    static Topology topology() {
        return new TopologyBuilder()
                .addSource("Source", Serdes.strings(), Serdes.strings(), INPUT)
                .addProcessor("Process", Count::new, "Source")
                .addStateStore(
                        Stores.keyValueStore(STORE, Serdes.strings(), Serdes.integers())
                                .inMemory(),
                        "Process")
                .addSink("Sink", OUTPUT, Serdes.strings(), Serdes.strings(), "Process")
                .build();
    }
}
