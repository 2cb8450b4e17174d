package io.weir.internal.state;

import io.weir.serde.Serde;
import io.weir.state.Entry;
import io.weir.state.KeyValueIterator;
import io.weir.state.KeyValueStore;
import io.weir.state.internal.BytesIterator;
import io.weir.state.internal.BytesMap;
import java.util.List;
import java.util.Objects;

/**
 * A {@link KeyValueStore} of typed keys and values over a bytes store, through serdes. Keys are
 * ordered by their serialized bytes (unsigned), which is what ranges follow: choose a key serde
 * whose byte order is the order you want to scan in (big-endian numbers, strings).
 *
 * <p>Used by one task's thread only.
 */
public final class TypedKeyValueStore<K, V> implements KeyValueStore<K, V> {

    private final String name;
    private final String topic;
    private final BytesMap map;
    private final Serde<K> keySerde;
    private final Serde<V> valueSerde;

    /** {@code topic} is what the serdes are told (the changelog topic). */
    public TypedKeyValueStore(String name, String topic, BytesMap map, Serde<K> keySerde, Serde<V> valueSerde) {
        this.name = name;
        this.topic = topic;
        this.map = map;
        this.keySerde = keySerde;
        this.valueSerde = valueSerde;
    }

    @Override
    public String name() {
        return name;
    }

    @Override
    public V get(K key) {
        return value(map.get(key(key)));
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
    public void putAll(List<Entry<K, V>> entries) {
        for (Entry<K, V> e : entries) {
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

    @Override
    public KeyValueIterator<K, V> range(K from, K to) {
        return typed(map.range(bound(from), bound(to), false));
    }

    @Override
    public KeyValueIterator<K, V> reverseRange(K from, K to) {
        return typed(map.range(bound(from), bound(to), true));
    }

    @Override
    public KeyValueIterator<K, V> prefixScan(byte[] keyPrefix) {
        return typed(map.prefix(Objects.requireNonNull(keyPrefix, "keyPrefix")));
    }

    @Override
    public KeyValueIterator<K, V> all() {
        return typed(map.all(false));
    }

    @Override
    public KeyValueIterator<K, V> reverseAll() {
        return typed(map.all(true));
    }

    @Override
    public long approximateNumEntries() {
        return map.approximateCount();
    }

    private byte[] key(K key) {
        Objects.requireNonNull(key, "a store key must not be null");
        byte[] k = keySerde.serialize(topic, key);
        if (k == null) {
            throw new IllegalArgumentException("the key serde of store '" + name + "' turned " + key + " into null");
        }
        return k;
    }

    private byte[] bound(K key) {
        return key == null ? null : keySerde.serialize(topic, key);
    }

    private V value(byte[] bytes) {
        return bytes == null ? null : valueSerde.deserialize(topic, bytes);
    }

    private KeyValueIterator<K, V> typed(BytesIterator it) {
        return new KeyValueIterator<>() {
            @Override
            public boolean hasNext() {
                return it.hasNext();
            }

            @Override
            public Entry<K, V> next() {
                Entry<byte[], byte[]> e = it.next();
                return new Entry<>(keySerde.deserialize(topic, e.key()), value(e.value()));
            }

            @Override
            public K peekNextKey() {
                return keySerde.deserialize(topic, it.peekNextKey());
            }

            @Override
            public void close() {
                it.close();
            }
        };
    }
}
