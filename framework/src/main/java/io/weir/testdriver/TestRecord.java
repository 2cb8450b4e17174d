package io.weir.testdriver;

import io.weir.processor.Headers;
import io.weir.serde.Serde;
import java.util.List;
import org.apache.kafka.clients.consumer.ConsumerRecord;

/**
 * A record a {@link TestDriver} read from a topic: where it is (topic, partition, offset) and
 * what it holds (key, value, timestamp, headers), deserialized with the serdes the test gave.
 */
public record TestRecord<K, V>(
        String topic, int partition, long offset, K key, V value, long timestamp, Headers headers) {

    /** {@code records} with their keys and values deserialized by the given serdes. */
    static <K, V> List<TestRecord<K, V>> typed(
            List<ConsumerRecord<byte[], byte[]>> records, Serde<K> keySerde, Serde<V> valueSerde) {
        return records.stream()
                .map(r -> new TestRecord<>(
                        r.topic(),
                        r.partition(),
                        r.offset(),
                        keySerde.deserialize(r.topic(), r.key()),
                        valueSerde.deserialize(r.topic(), r.value()),
                        r.timestamp(),
                        Headers.of(r.headers())))
                .toList();
    }

    /** {@code records} as they are stored: keys and values as bytes. */
    static List<TestRecord<byte[], byte[]>> raw(List<ConsumerRecord<byte[], byte[]>> records) {
        return records.stream()
                .map(r -> new TestRecord<>(
                        r.topic(),
                        r.partition(),
                        r.offset(),
                        r.key(),
                        r.value(),
                        r.timestamp(),
                        Headers.of(r.headers())))
                .toList();
    }

    @Override
    public String toString() {
        return topic + "-" + partition + "@" + offset + " " + key + "=" + value + " (t=" + timestamp
                + (headers.isEmpty() ? "" : ", " + headers) + ")";
    }
}
