package io.weir.serde;

import io.weir.errors.SerdeException;

/**
 * Turns values of one type into bytes and back. {@code null} stays {@code null} both ways (a
 * tombstone in Kafka).
 *
 * <p>Implementations must be thread-safe: one instance is shared by every task of an application.
 * Failures throw {@link SerdeException}; the runtime sends the record to the dead-letter topic
 * with the message.
 */
public interface Serde<T> {

    byte[] serialize(String topic, T value);

    T deserialize(String topic, byte[] bytes);

    /**
     * What the bytes look like, for compatibility checks: a store whose key or value format id
     * changes between two versions of an application cannot read the state the old version
     * wrote (the application refuses to start on it, and a savepoint restore reports it). The
     * built-in serdes answer {@code string}, {@code long}, {@code int}, {@code double},
     * {@code bytes}, {@code uuid}, {@code json} (any type: JSON evolves as the type's mapping
     * allows) and {@code windowed(<inner>)}; by default, the serde's class name.
     *
     * <p>Override it when the class is not the format: a serde renamed or rewritten that still
     * reads the old bytes keeps the old id; one class serving several formats (Avro with a
     * schema, say) includes what tells them apart.
     */
    default String formatId() {
        return getClass().getName();
    }
}
