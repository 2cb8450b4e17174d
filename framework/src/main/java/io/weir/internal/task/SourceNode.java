package io.weir.internal.task;

import io.weir.internal.topology.NodeSpec;
import io.weir.processor.Headers;
import io.weir.processor.Record;
import io.weir.serde.Serde;
import io.weir.time.TimestampExtractor;
import io.weir.time.Timestamps;
import java.util.function.LongSupplier;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.record.TimestampType;

/**
 * Turns a consumed record into a typed {@link Record} with its time: a serde failure is a
 * deserialization error, a missing or negative time a timestamp error (both dead-lettered).
 */
final class SourceNode extends Node {

    private final Serde<Object> keySerde;
    private final Serde<Object> valueSerde;
    private final TimestampExtractor<Object, Object> timestamps;
    private final LongSupplier wallClock;
    /** Reads a repartition topic, whose partitions carry their writers' watermarks. */
    final boolean repartitioned;
    /** False for a repartition topic without event time: its partitions do not count for the watermark. */
    final boolean eventTime;

    @SuppressWarnings("unchecked")
    SourceNode(NodeSpec.Source spec, TimestampExtractor<?, ?> timestamps, LongSupplier wallClock) {
        super(spec.name());
        this.keySerde = (Serde<Object>) spec.keySerde();
        this.valueSerde = (Serde<Object>) spec.valueSerde();
        this.timestamps = (TimestampExtractor<Object, Object>) timestamps;
        this.wallClock = wallClock;
        this.repartitioned = spec.internal() && spec.eventTime();
        this.eventTime = spec.eventTime();
    }

    /** Deserializes and times {@code in}; throws a {@link StageException} if it cannot. */
    Record<Object, Object> read(ConsumerRecord<byte[], byte[]> in) {
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
        return new Record<>(
                key,
                value,
                timestamp(in, key, value),
                Headers.of(in.headers()),
                in.topic(),
                in.partition(),
                in.offset());
    }

    private long timestamp(ConsumerRecord<byte[], byte[]> in, Object key, Object value) {
        if (timestamps == Timestamps.wallClock()) {
            return wallClock.getAsLong();
        }
        if (timestamps == Timestamps.logAppendTime() && in.timestampType() != TimestampType.LOG_APPEND_TIME) {
            throw badTimestamp("ingestion time (log-append) was asked for, but topic '" + in.topic() + "' stores "
                    + in.timestampType() + " timestamps; set the topic's message.timestamp.type=LogAppendTime");
        }
        long ts;
        try {
            ts = timestamps.extract(key, value, in.timestamp());
        } catch (RuntimeException e) {
            throw new StageException(Stage.TIMESTAMP, "the timestamp extractor failed: " + e, e);
        }
        if (ts < 0) {
            throw badTimestamp("the record's timestamp is " + ts
                    + (in.timestamp() < 0 && ts == in.timestamp() ? " (the record carries no timestamp)" : "")
                    + "; windows and watermarks need a time of 0 or more");
        }
        return ts;
    }

    private static StageException badTimestamp(String reason) {
        return new StageException(Stage.TIMESTAMP, reason, new IllegalArgumentException(reason));
    }

    void forward(Record<Object, Object> record) {
        forwardToChildren(record);
    }

    @Override
    void process(Record<Object, Object> record) {
        forwardToChildren(record);
    }
}
