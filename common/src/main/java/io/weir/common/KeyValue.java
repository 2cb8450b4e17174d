package io.weir.common;

/**
 * A key and a value: what {@code map} and {@code flatMap} return in the DSL, what store iterators
 * give, and what a test produces to a topic or reads back. The one pair type of Weir's API, like
 * Kafka Streams' {@code KeyValue}.
 *
 * <p>Either part may be {@code null} where the API that takes or gives the pair says so: a
 * {@code null} value is a tombstone when produced to a topic and a delete in
 * {@code KeyValueStore.putAll}; entries read from a store never have a {@code null} key or value.
 * Immutable when {@code K} and {@code V} are; for {@code byte[]} keys and values, equality is by
 * reference (as for any record of arrays), so compare contents with
 * {@link java.util.Arrays#equals(byte[], byte[])}.
 *
 * @param <K> the key type
 * @param <V> the value type
 */
public record KeyValue<K, V>(K key, V value) {

    /** Same as the constructor; reads better in lists: {@code List.of(KeyValue.of("a", "1"))}. */
    public static <K, V> KeyValue<K, V> of(K key, V value) {
        return new KeyValue<>(key, value);
    }
}
