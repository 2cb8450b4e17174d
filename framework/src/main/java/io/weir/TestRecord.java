package io.weir;

import io.weir.processor.Headers;

/**
 * A record a {@link TestDriver} read from a topic: where it is (topic, partition, offset) and
 * what it holds (key, value, timestamp, headers), deserialized with the serdes the test gave.
 */
public record TestRecord<K, V>(String topic, int partition, long offset, K key, V value, long timestamp,
                               Headers headers) {

    @Override
    public String toString() {
        return topic + "-" + partition + "@" + offset + " " + key + "=" + value + " (t=" + timestamp
                + (headers.isEmpty() ? "" : ", " + headers) + ")";
    }
}
