package io.weir.internal.state;

import io.weir.common.KeyValue;
import io.weir.serde.Serde;
import io.weir.state.KeyValueIterator;
import io.weir.state.ReadOnlyWindowStore;
import io.weir.state.Windowed;
import io.weir.state.internal.BytesReader;

/**
 * Typed window reads over a bytes store in the {@link WindowKeys} layout, through serdes. Scans
 * are ordered by window start, then by serialized key bytes.
 */
public class TypedWindowReader<K, V> extends TypedStoreReader<K, V> implements ReadOnlyWindowStore<K, V> {

    private final long windowSize;

    /** {@code topic} is what the serdes are told (the changelog topic). */
    public TypedWindowReader(
            String name, String topic, BytesReader reader, Serde<K> keySerde, Serde<V> valueSerde, long windowSize) {
        super(name, topic, reader, keySerde, valueSerde);
        if (windowSize <= 0) {
            throw new IllegalArgumentException("store '" + name + "': window size must be positive, was " + windowSize);
        }
        this.windowSize = windowSize;
    }

    @Override
    public V fetch(K key, long windowStart) {
        return value(reader.get(WindowKeys.key(windowStart, key(key))));
    }

    /** Scans every key's windows with a start in range and keeps {@code key}'s (see the interface). */
    @Override
    public KeyValueIterator<Windowed<K>, V> fetch(K key, long fromStart, long toStart) {
        return scan(fromStart, toStart, key(key), key);
    }

    @Override
    public KeyValueIterator<Windowed<K>, V> fetchAll(long fromStart, long toStart) {
        return scan(fromStart, toStart, null, null);
    }

    @Override
    public long windowSize() {
        return windowSize;
    }

    /**
     * Starts in {@code [from, to]}: the range from the first key of start {@code from} to the
     * first key of start {@code to + 1} (inclusive, so that one entry, of an empty key, is
     * filtered out by its start); all of {@code onlyKey}'s if set, else every key's.
     */
    private KeyValueIterator<Windowed<K>, V> scan(long from, long to, byte[] onlyKey, K typedKey) {
        byte[] lower = WindowKeys.startBound(from);
        byte[] upper = to == Long.MAX_VALUE ? null : WindowKeys.startBound(to + 1);
        return new DecodingIterator<>(reader.range(lower, upper, false), (k, v) -> {
            long start = WindowKeys.start(k);
            if (start > to || onlyKey != null && !WindowKeys.hasKey(k, onlyKey)) {
                return null;
            }
            K key = typedKey != null ? typedKey : keySerde.deserialize(topic, WindowKeys.keyBytes(k));
            return new KeyValue<>(new Windowed<>(key, start, end(start)), value(v));
        });
    }

    /** The exclusive end of the window starting at {@code start}, saturated at {@link Long#MAX_VALUE}. */
    private long end(long start) {
        return start > Long.MAX_VALUE - windowSize ? Long.MAX_VALUE : start + windowSize;
    }
}
