package io.weir.serde;

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
}
