package io.weir.serde;

import io.weir.errors.SerdeException;
import io.weir.state.Windowed;
import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.Objects;

/**
 * {@link Windowed} keys as {@code [start: 8][end: 8][inner key bytes]}, the times big-endian (as
 * {@link Serdes#longs()}). Strict: fewer than 16 bytes, or an end before the start, is an error.
 */
final class WindowedSerde<K> implements Serde<Windowed<K>> {

    private static final int TIMES = 2 * Long.BYTES;

    private final Serde<K> inner;

    WindowedSerde(Serde<K> inner) {
        this.inner = Objects.requireNonNull(inner, "inner");
    }

    @Override
    public String formatId() {
        return "windowed(" + inner.formatId() + ")";
    }

    @Override
    public byte[] serialize(String topic, Windowed<K> value) {
        if (value == null) {
            return null;
        }
        byte[] key = inner.serialize(topic, value.key());
        if (key == null) {
            throw new SerdeException("the inner serde turned the windowed key " + value.key() + " into null");
        }
        return ByteBuffer.allocate(TIMES + key.length)
                .putLong(value.start())
                .putLong(value.end())
                .put(key)
                .array();
    }

    @Override
    public Windowed<K> deserialize(String topic, byte[] bytes) {
        if (bytes == null) {
            return null;
        }
        if (bytes.length < TIMES) {
            throw new SerdeException(
                    "a windowed key needs at least " + TIMES + " bytes (start and end), got " + bytes.length);
        }
        ByteBuffer b = ByteBuffer.wrap(bytes);
        long start = b.getLong();
        long end = b.getLong();
        if (end < start) {
            throw new SerdeException("a windowed key ends (" + end + ") before it starts (" + start + ")");
        }
        K key = inner.deserialize(topic, Arrays.copyOfRange(bytes, TIMES, bytes.length));
        if (key == null) {
            throw new SerdeException("the inner serde turned the key bytes of a windowed key into null");
        }
        return new Windowed<>(key, start, end);
    }
}
