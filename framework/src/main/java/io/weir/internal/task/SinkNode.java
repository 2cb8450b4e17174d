package io.weir.internal.task;

import io.weir.dsl.StreamPartitioner;
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
    /** Null for Kafka's default partitioner. */
    private final StreamPartitioner<Object, Object> partitioner;
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
        this.partitioner = (StreamPartitioner<Object, Object>) spec.partitioner();
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
        Integer partition = partitioner == null ? null : partitionOf(target, record);
        io.weir.processor.Headers headers =
                tracing == null ? record.headers() : tracing.produced(record.headers(), target);
        if (partition != null) {
            collector.sendTo(target, partition, key, value, record.timestamp(), headers.toArray());
            return;
        }
        // A windowed key (serialized as [start][end][inner key]) is partitioned by its inner key.
        byte[] partitionKey = windowedKeys && key != null && key.length >= WINDOW_TIMES
                ? java.util.Arrays.copyOfRange(key, WINDOW_TIMES, key.length)
                : null;
        collector.send(target, key, value, record.timestamp(), headers.toArray(), partitionKey);
    }

    /**
     * The partitioner's choice for {@code record}, or null for the default. A partition the topic
     * lacks fails the record here, with a reason, rather than the producer's send, which would
     * fail the whole transaction.
     */
    private Integer partitionOf(String target, Record<Object, Object> record) {
        int partitions = collector.partitions(target);
        Integer partition = partitioner.partition(target, record.key(), record.value(), partitions);
        if (partition != null && (partition < 0 || partition >= partitions)) {
            throw new StageException(
                    Stage.PRODUCE,
                    "sink '" + name + "': the partitioner chose partition " + partition + " of topic '" + target
                            + "', which has " + partitions + " partitions (0 to " + (partitions - 1) + ")",
                    null);
        }
        return partition;
    }
}
