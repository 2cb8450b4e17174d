package io.weir.internal.state;

import io.weir.common.KeyValue;
import io.weir.serde.Serde;
import io.weir.state.KeyValueIterator;
import io.weir.state.ReadOnlySessionStore;
import io.weir.state.Windowed;
import io.weir.state.internal.ByteKeys;
import io.weir.state.internal.BytesReader;
import java.util.Arrays;

/**
 * Typed session reads over a bytes store in the {@link SessionKeys} layout, through serdes:
 * {@link #findSessions} and {@link #fetchSession} read the key's primary entries,
 * {@link #fetchAll} walks the time index and reads the primary entry of each session it lists.
 */
public class TypedSessionReader<K, V> extends TypedStoreReader<K, V> implements ReadOnlySessionStore<K, V> {

    /** {@code topic} is what the serdes are told (the changelog topic). */
    public TypedSessionReader(String name, String topic, BytesReader reader, Serde<K> keySerde, Serde<V> valueSerde) {
        super(name, topic, reader, keySerde, valueSerde);
    }

    /**
     * Scans {@code key}'s sessions from {@code earliestEnd} to its last one and keeps those that
     * start by {@code latestStart}: sessions may overlap, so a later end does not mean a later start.
     */
    @Override
    public KeyValueIterator<Windowed<K>, V> findSessions(K key, long earliestEnd, long latestStart) {
        byte[] k = key(key);
        byte[] prefix = SessionKeys.primaryPrefix(k);
        int length = prefix.length + 2 * Long.BYTES;
        // the prefix end is an inclusive bound here: a key equal to it, if any, is not the key's and is skipped
        return new DecodingIterator<>(
                reader.range(SessionKeys.primaryFrom(k, earliestEnd), ByteKeys.prefixEnd(prefix), false), (p, v) -> {
                    if (p.length != length || !Arrays.equals(p, 0, prefix.length, prefix, 0, prefix.length)) {
                        return null;
                    }
                    long start = SessionKeys.primaryStart(p);
                    return start > latestStart
                            ? null
                            : new KeyValue<>(new Windowed<>(key, start, SessionKeys.primaryEnd(p)), value(v));
                });
    }

    @Override
    public V fetchSession(K key, long start, long end) {
        return value(reader.get(SessionKeys.primary(key(key), start, end)));
    }

    @Override
    public KeyValueIterator<Windowed<K>, V> fetchAll(long fromEnd, long toEnd) {
        byte[] upper = toEnd == Long.MAX_VALUE
                ? ByteKeys.prefixEnd(SessionKeys.INDEX_PREFIX)
                : SessionKeys.indexFrom(toEnd + 1);
        return new DecodingIterator<>(reader.range(SessionKeys.indexFrom(fromEnd), upper, false), (i, empty) -> {
            if (!SessionKeys.isIndex(i) || SessionKeys.indexEnd(i) > toEnd) {
                return null;
            }
            byte[] v = reader.get(SessionKeys.primaryOf(i));
            if (v == null) {
                // Both are written and deleted together, but a compact,delete changelog may keep an
                // index record whose primary's segment its time retention deleted; expiry removes it.
                return null;
            }
            K key = keySerde.deserialize(topic, SessionKeys.indexKey(i));
            return new KeyValue<>(new Windowed<>(key, SessionKeys.indexStart(i), SessionKeys.indexEnd(i)), value(v));
        });
    }
}
