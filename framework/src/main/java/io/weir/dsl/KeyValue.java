package io.weir.dsl;

/** A key and a value, as returned by {@link RecordStream#map} and {@link RecordStream#flatMap}. */
public record KeyValue<K, V>(K key, V value) {

    public static <K, V> KeyValue<K, V> of(K key, V value) {
        return new KeyValue<>(key, value);
    }
}
