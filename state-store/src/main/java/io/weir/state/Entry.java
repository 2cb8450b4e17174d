package io.weir.state;

/**
 * A key and its value, as returned by store iterators. Immutable when {@code K} and {@code V} are;
 * for {@code byte[]} keys and values, equality is by reference (as for any record of arrays), so
 * compare contents with {@link java.util.Arrays#equals(byte[], byte[])}.
 *
 * @param key   never null
 * @param value never null for an entry read from a store; a {@code null} value means "delete"
 *              only where an API says so (e.g. {@link KeyValueStore#putAll})
 */
public record Entry<K, V>(K key, V value) {

    /** Shorthand for {@code new Entry<>(key, value)}. */
    public static <K, V> Entry<K, V> of(K key, V value) {
        return new Entry<>(key, value);
    }
}
