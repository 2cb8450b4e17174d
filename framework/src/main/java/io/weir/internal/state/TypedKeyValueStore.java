package io.weir.internal.state;

import io.weir.common.KeyValue;
import io.weir.serde.Serde;
import io.weir.state.KeyValueStore;
import io.weir.state.internal.BytesMap;
import java.util.List;

/**
 * A {@link KeyValueStore} of typed keys and values over a writable bytes store, through serdes;
 * reads as in {@link TypedReader}. Used by one task's thread only.
 */
public final class TypedKeyValueStore<K, V> extends TypedReader<K, V> implements KeyValueStore<K, V> {

    private final BytesMap map;

    public TypedKeyValueStore(String name, String topic, BytesMap map, Serde<K> keySerde, Serde<V> valueSerde) {
        super(name, topic, map, keySerde, valueSerde);
        this.map = map;
    }

    @Override
    public void put(K key, V value) {
        byte[] k = key(key);
        if (value == null) {
            map.delete(k);
        } else {
            map.put(k, valueSerde.serialize(topic, value));
        }
    }

    @Override
    public V putIfAbsent(K key, V value) {
        byte[] k = key(key);
        V previous = value(map.get(k));
        if (previous == null && value != null) {
            map.put(k, valueSerde.serialize(topic, value));
        }
        return previous;
    }

    @Override
    public void putAll(List<KeyValue<K, V>> entries) {
        for (KeyValue<K, V> e : entries) {
            put(e.key(), e.value());
        }
    }

    @Override
    public V delete(K key) {
        byte[] k = key(key);
        V previous = value(map.get(k));
        if (previous != null) {
            map.delete(k);
        }
        return previous;
    }
}
