package io.weir.testdriver;

import io.weir.processor.Headers;
import io.weir.serde.Serde;
import io.weir.testdriver.internal.DriverRuntime;
import java.util.Objects;

/**
 * An input topic of a {@link TestDriver} that serializes with the serdes of a test's choosing
 * instead of the source's ({@link TestDriver#input}): for records of another type than the source
 * reads, such as malformed bytes with {@code Serdes.bytes()}. Each pipe behaves as the driver's.
 *
 * <p>Threading: as the driver it belongs to.
 */
public final class TestInput<K, V> {

    private final DriverRuntime runtime;
    private final String topic;
    private final Serde<K> keySerde;
    private final Serde<V> valueSerde;

    TestInput(DriverRuntime runtime, String topic, Serde<K> keySerde, Serde<V> valueSerde) {
        this.runtime = runtime;
        this.topic = topic;
        this.keySerde = keySerde;
        this.valueSerde = valueSerde;
    }

    /** As {@link TestDriver#pipe(String, Object, Object, long)}, with this input's serdes. */
    public void pipe(K key, V value, long timestamp) {
        byte[] k = keySerde.serialize(topic, key);
        runtime.pipe(
                topic,
                runtime.partitionFor(topic, k),
                k,
                valueSerde.serialize(topic, value),
                timestamp,
                Headers.empty().toArray());
    }

    /** As {@link TestDriver#pipe(String, int, Object, Object, long, Headers)}, with this input's serdes. */
    public void pipe(int partition, K key, V value, long timestamp, Headers headers) {
        runtime.pipe(
                topic,
                partition,
                keySerde.serialize(topic, key),
                valueSerde.serialize(topic, value),
                timestamp,
                Objects.requireNonNull(headers, "headers").toArray());
    }

    /** As {@link TestDriver#pipe(String, int, Object, Object, long)}, with this input's serdes. */
    public void pipe(int partition, K key, V value, long timestamp) {
        pipe(partition, key, value, timestamp, Headers.empty());
    }
}
