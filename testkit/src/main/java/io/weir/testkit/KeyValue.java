package io.weir.testkit;

/**
 * A key and a value to produce with {@link KafkaTestClient}. Unlike {@code Map.entry}, both may be
 * {@code null}: a null key leaves partitioning to the producer, a null value is a tombstone.
 */
public record KeyValue<K, V>(K key, V value) {

    /** Same as the constructor; reads better in lists: {@code List.of(KeyValue.of("a", "1"))}. */
    public static <K, V> KeyValue<K, V> of(K key, V value) {
        return new KeyValue<>(key, value);
    }
}
