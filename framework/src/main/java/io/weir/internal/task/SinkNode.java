package io.weir.internal.task;

import io.weir.dsl.TopicNameExtractor;
import io.weir.internal.topology.NodeSpec;
import io.weir.internal.tracing.Tracing;
import io.weir.processor.Record;
import io.weir.serde.Serde;

/** Serializes a record and hands it to the thread's {@link OutputCollector}. */
final class SinkNode extends Node {

    private final String topic;
    private final TopicNameExtractor<Object, Object> extractor;
    private final Serde<Object> keySerde;
    private final Serde<Object> valueSerde;
    private final OutputCollector collector;
    /** Bytes of start and end before the inner key in {@code Serdes.windowed}. */
    private static final int WINDOW_TIMES = 2 * Long.BYTES;

    private final boolean windowedKeys;
    /** Writes the producing span's context into outputs; only called when {@link Tracing#on()}. */
    private final Tracing tracing;

    @SuppressWarnings("unchecked")
    SinkNode(NodeSpec.Sink spec, OutputCollector collector, Tracing tracing) {
        super(spec.name());
        this.topic = spec.topic();
        this.extractor = (TopicNameExtractor<Object, Object>) spec.extractor();
        this.keySerde = (Serde<Object>) spec.keySerde();
        this.valueSerde = (Serde<Object>) spec.valueSerde();
        this.collector = collector;
        this.windowedKeys = io.weir.serde.Serdes.isWindowed(keySerde);
        this.tracing = tracing.on() ? tracing : null;
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
        // A windowed key (serialized as [start][end][inner key]) is partitioned by its inner key.
        byte[] partitionKey = windowedKeys && key != null && key.length >= WINDOW_TIMES
                ? java.util.Arrays.copyOfRange(key, WINDOW_TIMES, key.length)
                : null;
        io.weir.processor.Headers headers =
                tracing == null ? record.headers() : tracing.produced(record.headers(), target);
        collector.send(target, key, value, record.timestamp(), headers.toArray(), partitionKey);
    }
}
