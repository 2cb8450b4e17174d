package io.weir.internal.state;

import io.weir.serde.Serde;
import io.weir.state.WindowStore;
import io.weir.state.internal.BytesMap;
import java.util.function.LongConsumer;

/**
 * A {@link WindowStore} of typed keys and values over a writable bytes store in the
 * {@link WindowKeys} layout; reads as in {@link TypedWindowReader}. Used by one task's thread only.
 */
public final class TypedWindowStore<K, V> extends TypedWindowReader<K, V> implements WindowStore<K, V> {

    private final BytesMap map;
    private final LongConsumer onPut;

    /**
     * @param onPut told the start of every window written (for expiry to know the earliest start)
     */
    public TypedWindowStore(
            String name,
            String topic,
            BytesMap map,
            Serde<K> keySerde,
            Serde<V> valueSerde,
            long windowSize,
            LongConsumer onPut) {
        super(name, topic, map, keySerde, valueSerde, windowSize);
        this.map = map;
        this.onPut = onPut;
    }

    @Override
    public void put(K key, long windowStart, V value) {
        byte[] k = WindowKeys.key(windowStart, key(key));
        if (value == null) {
            map.delete(k);
        } else {
            map.put(k, valueSerde.serialize(topic, value));
            onPut.accept(windowStart);
        }
    }
}
