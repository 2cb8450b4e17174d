package io.weir.internal.operator;

import io.weir.common.KeyValue;
import io.weir.state.KeyValueIterator;
import io.weir.state.KeyValueStore;
import java.util.List;
import java.util.Map;

/**
 * A key-value store over a map, for unit tests of one processor: keyed by the key's text (a
 * {@code byte[]} key by its content), so a test reads what the processor stored by plain strings.
 * Point reads and writes only; the scans throw.
 */
public record MapKeyValueStore<K, V>(String name, Map<String, V> map) implements KeyValueStore<K, V> {

    private static String text(Object key) {
        return key instanceof byte[] b ? new String(b) : String.valueOf(key);
    }

    @Override
    public void put(K key, V value) {
        if (value == null) {
            map.remove(text(key));
        } else {
            map.put(text(key), value);
        }
    }

    @Override
    public V putIfAbsent(K key, V value) {
        return map.putIfAbsent(text(key), value);
    }

    @Override
    public void putAll(List<KeyValue<K, V>> entries) {
        entries.forEach(e -> put(e.key(), e.value()));
    }

    @Override
    public V delete(K key) {
        return map.remove(text(key));
    }

    @Override
    public V get(K key) {
        return map.get(text(key));
    }

    @Override
    public KeyValueIterator<K, V> range(K from, K to) {
        throw new AssertionError("not used");
    }

    @Override
    public KeyValueIterator<K, V> reverseRange(K from, K to) {
        throw new AssertionError("not used");
    }

    @Override
    public KeyValueIterator<K, V> prefixScan(byte[] keyPrefix) {
        throw new AssertionError("not used");
    }

    @Override
    public KeyValueIterator<K, V> all() {
        throw new AssertionError("not used");
    }

    @Override
    public KeyValueIterator<K, V> reverseAll() {
        throw new AssertionError("not used");
    }

    @Override
    public long approximateNumEntries() {
        return map.size();
    }
}
