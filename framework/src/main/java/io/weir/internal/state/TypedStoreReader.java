package io.weir.internal.state;

import io.weir.serde.Serde;
import io.weir.state.internal.BytesReader;
import java.util.Objects;

/**
 * What the typed readers of key-value, window and session stores share: a bytes store read
 * through a key and a value serde, which are told the changelog topic. Each subclass maps its
 * store's byte layout ({@link WindowKeys}, {@link SessionKeys}, plain keys) to typed reads.
 */
abstract class TypedStoreReader<K, V> {

    final String name;
    final String topic;
    final Serde<K> keySerde;
    final Serde<V> valueSerde;
    final BytesReader reader;

    /** {@code topic} is what the serdes are told (the changelog topic). */
    TypedStoreReader(String name, String topic, BytesReader reader, Serde<K> keySerde, Serde<V> valueSerde) {
        this.name = name;
        this.topic = topic;
        this.reader = reader;
        this.keySerde = keySerde;
        this.valueSerde = valueSerde;
    }

    public String name() {
        return name;
    }

    /** {@code key} through the key serde; a null key, or a serde that returns null, is an error naming the store. */
    final byte[] key(K key) {
        Objects.requireNonNull(key, "a store key must not be null");
        byte[] k = keySerde.serialize(topic, key);
        if (k == null) {
            throw new IllegalArgumentException("the key serde of store '" + name + "' turned " + key + " into null");
        }
        return k;
    }

    final V value(byte[] bytes) {
        return bytes == null ? null : valueSerde.deserialize(topic, bytes);
    }
}
