package io.weir.internal.runtime;

import io.weir.internal.topology.NodeSpec;
import io.weir.processor.Headers;
import io.weir.processor.Record;
import io.weir.serde.Serde;
import org.apache.kafka.clients.consumer.ConsumerRecord;

/** Turns a consumed record into a typed {@link Record}; a serde failure is a deserialization error. */
final class SourceNode extends Node {

    private final Serde<Object> keySerde;
    private final Serde<Object> valueSerde;

    @SuppressWarnings("unchecked")
    SourceNode(NodeSpec.Source spec) {
        super(spec.name());
        this.keySerde = (Serde<Object>) spec.keySerde();
        this.valueSerde = (Serde<Object>) spec.valueSerde();
    }

    void consume(ConsumerRecord<byte[], byte[]> in) {
        Object key;
        Object value;
        try {
            key = keySerde.deserialize(in.topic(), in.key());
        } catch (RuntimeException e) {
            throw new StageException(Stage.DESERIALIZE, "key: " + e.getMessage(), e);
        }
        try {
            value = valueSerde.deserialize(in.topic(), in.value());
        } catch (RuntimeException e) {
            throw new StageException(Stage.DESERIALIZE, "value: " + e.getMessage(), e);
        }
        process(new Record<>(key, value, in.timestamp(), Headers.of(in.headers()),
                in.topic(), in.partition(), in.offset()));
    }

    @Override
    void process(Record<Object, Object> record) {
        forwardToChildren(record);
    }
}
