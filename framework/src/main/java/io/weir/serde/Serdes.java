package io.weir.serde;

import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.weir.errors.SerdeException;
import io.weir.state.Windowed;
import java.util.UUID;
import org.apache.kafka.common.serialization.Deserializer;
import org.apache.kafka.common.serialization.Serializer;

/**
 * The built-in serdes. The number serdes use Kafka's big-endian fixed-width encodings, so topics
 * written by Kafka Streams' or plain clients' serializers read back the same.
 */
public final class Serdes {

    private Serdes() {}

    /** UTF-8 strings. */
    public static Serde<String> strings() {
        return FixedSerdes.STRING;
    }

    /** 8-byte big-endian longs; any other length is an error. */
    public static Serde<Long> longs() {
        return FixedSerdes.LONG;
    }

    /** 4-byte big-endian ints; any other length is an error. */
    public static Serde<Integer> integers() {
        return FixedSerdes.INTEGER;
    }

    /** 8-byte IEEE 754 doubles; any other length is an error. */
    public static Serde<Double> doubles() {
        return FixedSerdes.DOUBLE;
    }

    /** The bytes as they are. */
    public static Serde<byte[]> bytes() {
        return FixedSerdes.BYTES;
    }

    /** UUIDs in their 36-character string form, as Kafka's UUIDSerializer writes them. */
    public static Serde<UUID> uuids() {
        return FixedSerdes.UUID;
    }

    /**
     * JSON through Jackson into {@code type} (Java records included). Strict: malformed JSON,
     * trailing garbage, a value of the wrong type, {@code null} for a primitive, and an empty
     * payload are errors.
     */
    public static <T> Serde<T> json(Class<T> type) {
        return JsonSerde.of(JsonSerde.defaultMapper(), type);
    }

    /** JSON into a generic type, for example {@code new TypeReference<List<Reading>>() {}}. */
    public static <T> Serde<T> json(TypeReference<T> type) {
        return JsonSerde.of(JsonSerde.defaultMapper(), type);
    }

    /** JSON with the caller's {@link ObjectMapper} (modules, naming strategies, leniency). */
    public static <T> Serde<T> json(ObjectMapper mapper, Class<T> type) {
        return JsonSerde.of(mapper, type);
    }

    /**
     * {@link Windowed} keys: {@code [start: 8][end: 8][inner key bytes]}, the times as 8-byte
     * big-endian longs. Strict: fewer than 16 bytes, an end before the start, or an inner key that
     * {@code inner} cannot read is an error.
     */
    public static <K> Serde<Windowed<K>> windowed(Serde<K> inner) {
        return new WindowedSerde<>(inner);
    }

    /** Adapts a Kafka serializer and deserializer pair. */
    public static <T> Serde<T> from(Serializer<T> serializer, Deserializer<T> deserializer) {
        return new Serde<>() {
            @Override
            public String formatId() {
                return "kafka:" + serializer.getClass().getName();
            }

            @Override
            public byte[] serialize(String topic, T value) {
                return serializer.serialize(topic, value);
            }

            @Override
            public T deserialize(String topic, byte[] bytes) {
                try {
                    return deserializer.deserialize(topic, bytes);
                } catch (RuntimeException e) {
                    throw new SerdeException(e.getMessage(), e);
                }
            }
        };
    }

    /**
     * True for a serde made by {@link #windowed(Serde)}: sinks then partition by the inner key, so
     * all windows of a key land in one partition, in order.
     */
    public static boolean isWindowed(Serde<?> serde) {
        return serde instanceof WindowedSerde<?>;
    }
}
