package io.weir.internal.state;

import io.weir.common.KeyValue;
import io.weir.serde.Serde;
import io.weir.state.KeyValueIterator;
import io.weir.state.ReadOnlyKeyValueStore;
import io.weir.state.internal.BytesIterator;
import io.weir.state.internal.BytesReader;
import java.util.Objects;

/**
 * Typed reads over a bytes store, through serdes. Keys are ordered by their serialized bytes
 * (unsigned), which is what ranges follow: choose a key serde whose byte order is the order you
 * want to scan in (big-endian numbers, strings).
 */
public class TypedReader<K, V> extends TypedStoreReader<K, V> implements ReadOnlyKeyValueStore<K, V> {

    /** {@code topic} is what the serdes are told (the changelog topic). */
    public TypedReader(String name, String topic, BytesReader reader, Serde<K> keySerde, Serde<V> valueSerde) {
        super(name, topic, reader, keySerde, valueSerde);
    }

    @Override
    public V get(K key) {
        return value(reader.get(key(key)));
    }

    @Override
    public KeyValueIterator<K, V> range(K from, K to) {
        return typed(reader.range(bound(from), bound(to), false));
    }

    @Override
    public KeyValueIterator<K, V> reverseRange(K from, K to) {
        return typed(reader.range(bound(from), bound(to), true));
    }

    @Override
    public KeyValueIterator<K, V> prefixScan(byte[] keyPrefix) {
        return typed(reader.prefix(Objects.requireNonNull(keyPrefix, "keyPrefix")));
    }

    @Override
    public KeyValueIterator<K, V> all() {
        return typed(reader.all(false));
    }

    @Override
    public KeyValueIterator<K, V> reverseAll() {
        return typed(reader.all(true));
    }

    @Override
    public long approximateNumEntries() {
        return reader.approximateCount();
    }

    private byte[] bound(K key) {
        return key == null ? null : keySerde.serialize(topic, key);
    }

    private KeyValueIterator<K, V> typed(BytesIterator it) {
        return new KeyValueIterator<>() {
            @Override
            public boolean hasNext() {
                return it.hasNext();
            }

            @Override
            public KeyValue<K, V> next() {
                KeyValue<byte[], byte[]> e = it.next();
                return new KeyValue<>(keySerde.deserialize(topic, e.key()), value(e.value()));
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
