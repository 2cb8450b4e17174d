package io.weir.internal.runtime;

import io.weir.dsl.TopicNameExtractor;
import io.weir.internal.topology.NodeSpec;
import io.weir.processor.Record;
import io.weir.serde.Serde;

/** Serializes a record and hands it to the thread's {@link OutputCollector}. */
final class SinkNode extends Node {

    private final String topic;
    private final TopicNameExtractor<Object, Object> extractor;
    private final Serde<Object> keySerde;
    private final Serde<Object> valueSerde;
    private final OutputCollector collector;

    @SuppressWarnings("unchecked")
    SinkNode(NodeSpec.Sink spec, OutputCollector collector) {
        super(spec.name());
        this.topic = spec.topic();
        this.extractor = (TopicNameExtractor<Object, Object>) spec.extractor();
        this.keySerde = (Serde<Object>) spec.keySerde();
        this.valueSerde = (Serde<Object>) spec.valueSerde();
        this.collector = collector;
    }

    @Override
    void process(Record<Object, Object> record) {
        String target = topic != null ? topic : extractor.topic(record);
        if (target == null || target.isEmpty()) {
            throw new IllegalStateException("sink '" + name + "': the topic extractor returned no topic");
        }
        byte[] key;
        byte[] value;
        try {
            key = keySerde.serialize(target, record.key());
            value = valueSerde.serialize(target, record.value());
        } catch (RuntimeException e) {
            throw new StageException(Stage.PRODUCE, "serializing for " + target + ": " + e.getMessage(), e);
        }
        collector.send(target, key, value, record.timestamp(), record.headers().toArray());
    }
}
