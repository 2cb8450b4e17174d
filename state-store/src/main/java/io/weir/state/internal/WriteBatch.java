package io.weir.state.internal;

import java.util.Arrays;
import java.util.function.BiConsumer;

/**
 * An ordered list of puts and deletes for {@link BytesStore#apply}: the unit that is written to a
 * store atomically with a changelog offset. Reusable: {@link #clear()} keeps the capacity, so a
 * restore can fill one batch per poll without allocating per record.
 *
 * <p>Guarantees: entries keep the order they were added in (a store applies them in that order,
 * so a later write of a key wins); a {@code null} value is a delete. Holds references to the
 * arrays given, without copying: do not modify them afterwards. Not thread-safe.
 */
public final class WriteBatch {

    private byte[][] keys;
    private byte[][] values;
    private int size;
    private long bytes;

    /** An empty batch. */
    public WriteBatch() {
        this(16);
    }

    /** An empty batch with room for {@code capacity} entries before it grows. */
    public WriteBatch(int capacity) {
        int initial = Math.max(1, capacity);
        keys = new byte[initial][];
        values = new byte[initial][];
    }

    /** Adds a put of {@code value} under {@code key}; a {@code null} value is a delete. */
    public WriteBatch put(byte[] key, byte[] value) {
        if (key == null) {
            throw new NullPointerException("key");
        }
        if (size == keys.length) {
            int capacity = keys.length * 2;
            keys = Arrays.copyOf(keys, capacity);
            values = Arrays.copyOf(values, capacity);
        }
        keys[size] = key;
        values[size] = value;
        size++;
        bytes += key.length + (value == null ? 0 : value.length);
        return this;
    }

    /** Adds a delete of {@code key}. */
    public WriteBatch delete(byte[] key) {
        return put(key, null);
    }

    /** The number of entries (puts and deletes). */
    public int size() {
        return size;
    }

    public boolean isEmpty() {
        return size == 0;
    }

    /** The total length of keys and values added. */
    public long bytes() {
        return bytes;
    }

    /** The key of entry {@code i}, {@code 0 <= i < size()}. */
    public byte[] key(int i) {
        checkIndex(i);
        return keys[i];
    }

    /** The value of entry {@code i}, or {@code null} if it is a delete. */
    public byte[] value(int i) {
        checkIndex(i);
        return values[i];
    }

    /** Calls {@code action} with each key and value (null for a delete), in order. */
    public void forEach(BiConsumer<byte[], byte[]> action) {
        for (int i = 0; i < size; i++) {
            action.accept(keys[i], values[i]);
        }
    }

    /** Empties the batch, keeping its capacity and dropping its references to the arrays. */
    public void clear() {
        Arrays.fill(keys, 0, size, null);
        Arrays.fill(values, 0, size, null);
        size = 0;
        bytes = 0;
    }

    private void checkIndex(int i) {
        if (i < 0 || i >= size) {
            throw new IndexOutOfBoundsException("index " + i + ", size " + size);
        }
    }
}
