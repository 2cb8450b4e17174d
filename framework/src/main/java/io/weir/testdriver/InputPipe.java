package io.weir.testdriver;

import io.weir.internal.topology.NodeSpec;
import io.weir.processor.Headers;
import io.weir.serde.Serde;
import io.weir.testdriver.internal.DriverRuntime;
import java.util.Objects;

/**
 * How the driver pipes a typed record: it encodes the key and value with the serdes of the source,
 * or of the global table, that reads the topic, and hands the bytes to the runtime. A key or value
 * of another type fails, naming the topic and the way to pipe it anyway ({@link TestDriver#input}).
 */
final class InputPipe {

    private final DriverRuntime runtime;

    InputPipe(DriverRuntime runtime) {
        this.runtime = runtime;
    }

    /** Pipes into the partition Kafka's default partitioner picks for the encoded key. */
    void pipe(String topic, Object key, Object value, long timestamp) {
        runtime.requireInput(topic);
        byte[] k = key(topic, key);
        runtime.pipe(
                topic,
                runtime.partitionFor(topic, k),
                k,
                value(topic, value),
                timestamp,
                Headers.empty().toArray());
    }

    void pipe(String topic, int partition, Object key, Object value, long timestamp, Headers headers) {
        runtime.requireInput(topic);
        runtime.pipe(
                topic,
                partition,
                key(topic, key),
                value(topic, value),
                timestamp,
                Objects.requireNonNull(headers, "headers").toArray());
    }

    private byte[] key(String topic, Object key) {
        return serialize(topic, "key", serdesOf(topic).key(), key);
    }

    private byte[] value(String topic, Object value) {
        return serialize(topic, "value", serdesOf(topic).value(), value);
    }

    /** The serdes an input topic is read with: its source's, or its global table's. */
    private record InputSerdes(Serde<?> key, Serde<?> value) {}

    private InputSerdes serdesOf(String topic) {
        var st = runtime.model().subtopologyFor(topic);
        if (st != null) {
            NodeSpec.Source source = st.sourceFor(topic);
            return new InputSerdes(source.keySerde(), source.valueSerde());
        }
        var global = runtime.model().globalTables().values().stream()
                .filter(g -> g.topic().equals(topic))
                .findFirst()
                .orElseThrow();
        return new InputSerdes(global.keySerde(), global.valueSerde());
    }

    @SuppressWarnings("unchecked")
    private static byte[] serialize(String topic, String what, Serde<?> serde, Object data) {
        try {
            return ((Serde<Object>) serde).serialize(topic, data);
        } catch (ClassCastException e) {
            throw new IllegalArgumentException(
                    "the " + what + " " + data + " is not of the type the serde of the"
                            + " source reading '" + topic + "' takes (" + e.getMessage() + "); pipe with input(topic,"
                            + " keySerde, valueSerde) to write another type",
                    e);
        }
    }
}
