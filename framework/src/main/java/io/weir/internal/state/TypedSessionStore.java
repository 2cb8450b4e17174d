package io.weir.internal.state;

import io.weir.serde.Serde;
import io.weir.state.SessionStore;
import io.weir.state.Windowed;
import io.weir.state.internal.BytesMap;
import java.util.Objects;
import java.util.function.LongConsumer;

/**
 * A {@link SessionStore} of typed keys and values over a writable bytes store in the
 * {@link SessionKeys} layout: each put or remove writes the primary entry and the time-index entry
 * together into the same map, so both reach the changelog and the committed store in the same
 * commit. Reads as in {@link TypedSessionReader}. Used by one task's thread only.
 */
public final class TypedSessionStore<K, V> extends TypedSessionReader<K, V> implements SessionStore<K, V> {

    private final BytesMap map;
    private final LongConsumer onPut;

    /**
     * @param onPut told the end of every session written (for expiry to know the earliest end)
     */
    public TypedSessionStore(
            String name, String topic, BytesMap map, Serde<K> keySerde, Serde<V> valueSerde, LongConsumer onPut) {
        super(name, topic, map, keySerde, valueSerde);
        this.map = map;
        this.onPut = onPut;
    }

    @Override
    public void put(Windowed<K> session, V value) {
        Objects.requireNonNull(session, "session");
        if (value == null) {
            remove(session);
            return;
        }
        byte[] k = key(session.key());
        map.put(SessionKeys.primary(k, session.start(), session.end()), valueSerde.serialize(topic, value));
        map.put(SessionKeys.index(k, session.start(), session.end()), SessionKeys.INDEX_VALUE);
        onPut.accept(session.end());
    }

    @Override
    public void remove(Windowed<K> session) {
        Objects.requireNonNull(session, "session");
        byte[] k = key(session.key());
        map.delete(SessionKeys.primary(k, session.start(), session.end()));
        map.delete(SessionKeys.index(k, session.start(), session.end()));
    }
}
