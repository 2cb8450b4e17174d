package io.weir.state.internal;

import java.util.Arrays;
import java.util.function.BiConsumer;

/**
 * An ordered list of puts and deletes for {@link BytesStore#apply}: the unit that is written to a
 * store atomically with a changelog offset. Reusable: {@link #clear()} keeps the capacity, so a
 * restore can fill one batch per poll without allocating per record.
 *
 * <p>Guarantees: entries keep the order they were added in (a store applies them in that order,
 * so a later write of a key wins); a {@code null} value is a delete. A batch may also hold
 * {@linkplain #deleteRange range deletes}, applied in their place in the order like any other
 * entry (RocksDB's own batches work the same way); they come only from local expiry, never from a
 * changelog. Holds references to the arrays given, without copying: do not modify them afterwards.
 * Not thread-safe.
 */
public final class WriteBatch {

    private byte[][] keys;
    private byte[][] values;
    /** Exclusive ends of range deletes by entry, null for point entries; allocated by the first range delete. */
    private byte[][] rangeEnds;
    private int rangeDeletes;
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
        grow();
        keys[size] = key;
        values[size] = value;
        size++;
        bytes += key.length + (value == null ? 0 : value.length);
        return this;
    }

    /**
     * Adds a delete of every key {@code k} with {@code from <= k < toExclusive}. An empty range
     * ({@code from >= toExclusive}) adds nothing.
     */
    public WriteBatch deleteRange(byte[] from, byte[] toExclusive) {
        if (from == null || toExclusive == null) {
            throw new NullPointerException(from == null ? "from" : "toExclusive");
        }
        if (ByteKeys.compare(from, toExclusive) >= 0) {
            return this;
        }
        grow();
        if (rangeEnds == null) {
            rangeEnds = new byte[keys.length][];
        }
        keys[size] = from;
        values[size] = null;
        rangeEnds[size] = toExclusive;
        size++;
        rangeDeletes++;
        bytes += from.length + toExclusive.length;
        return this;
    }

    private void grow() {
        if (size == keys.length) {
            int capacity = keys.length * 2;
            keys = Arrays.copyOf(keys, capacity);
            values = Arrays.copyOf(values, capacity);
            if (rangeEnds != null) {
                rangeEnds = Arrays.copyOf(rangeEnds, capacity);
            }
        }
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

    /** True if the batch holds at least one {@linkplain #deleteRange range delete}. */
    public boolean hasRangeDeletes() {
        return rangeDeletes > 0;
    }

    /** True if the batch holds nothing but deletes (point or range). */
    public boolean isDeletesOnly() {
        for (int i = 0; i < size; i++) {
            if (values[i] != null) {
                return false;
            }
        }
        return true;
    }

    /**
     * The exclusive end of entry {@code i} if it is a {@linkplain #deleteRange range delete} (whose
     * start is {@link #key(int)}), or {@code null} for a put or a point delete.
     */
    public byte[] rangeEnd(int i) {
        checkIndex(i);
        return rangeEnds == null ? null : rangeEnds[i];
    }

    /** The key of entry {@code i}, {@code 0 <= i < size()}; the start of a range delete. */
    public byte[] key(int i) {
        checkIndex(i);
        return keys[i];
    }

    /** The value of entry {@code i}, or {@code null} if it is a delete. */
    public byte[] value(int i) {
        checkIndex(i);
        return values[i];
    }

    /**
     * Calls {@code action} with each key and value (null for a delete), in order.
     *
     * @throws IllegalStateException if the batch holds range deletes, which a key and a value
     *                               cannot express
     */
    public void forEach(BiConsumer<byte[], byte[]> action) {
        if (rangeDeletes > 0) {
            throw new IllegalStateException("the batch holds range deletes; iterate it by index and rangeEnd(i)");
        }
        for (int i = 0; i < size; i++) {
            action.accept(keys[i], values[i]);
        }
    }

    /** Empties the batch, keeping its capacity and dropping its references to the arrays. */
    public void clear() {
        Arrays.fill(keys, 0, size, null);
        Arrays.fill(values, 0, size, null);
        if (rangeEnds != null) {
            Arrays.fill(rangeEnds, 0, size, null);
        }
        rangeDeletes = 0;
        size = 0;
        bytes = 0;
    }

    private void checkIndex(int i) {
        if (i < 0 || i >= size) {
            throw new IndexOutOfBoundsException("index " + i + ", size " + size);
        }
    }
}
