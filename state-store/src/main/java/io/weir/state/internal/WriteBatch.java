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

    /**
     * The indices of the entries in key order (unsigned bytes, as {@link ByteKeys#compare} and
     * RocksDB's default comparator order them), one per key: its last write, which is what
     * applying the batch leaves. What a bulk load needs: sorted, distinct keys. Sorting is stable,
     * so among equal keys the latest entry is the one kept.
     *
     * @throws IllegalStateException if the batch holds range deletes, which have no place in a key order
     */
    public int[] lastWritePerKeyInKeyOrder() {
        if (rangeDeletes > 0) {
            throw new IllegalStateException("the batch holds range deletes; they have no place in a key order");
        }
        int[] order = sortedByKey();
        int distinct = 0;
        for (int i = 0; i < size; i++) {
            if (i + 1 < size && Arrays.equals(keys[order[i]], keys[order[i + 1]])) {
                continue; // a later write of the same key follows
            }
            order[distinct++] = order[i];
        }
        return distinct == size ? order : Arrays.copyOf(order, distinct);
    }

    /**
     * The entry indices sorted by key, stable. Comparing byte arrays costs a call and a loop per
     * comparison; a primitive sort of each key's first {@value #PREFIX_BYTES} bytes (with the index
     * in the low bits, so equal prefixes keep entry order) does most of the work, and only runs of
     * equal prefixes are then sorted by their whole keys.
     */
    private int[] sortedByKey() {
        if (size >= 1 << INDEX_BITS) {
            int[] order = new int[size];
            for (int i = 0; i < size; i++) {
                order[i] = i;
            }
            mergeSort(order, new int[size], 0, size);
            return order;
        }
        long[] packed = new long[size];
        for (int i = 0; i < size; i++) {
            // Sign bit flipped: signed order of the longs is the unsigned order of the bytes.
            packed[i] = (prefix(keys[i]) << INDEX_BITS | i) ^ Long.MIN_VALUE;
        }
        Arrays.sort(packed);
        int[] order = new int[size];
        for (int i = 0; i < size; i++) {
            order[i] = (int) (packed[i] & ((1L << INDEX_BITS) - 1));
        }
        int[] tmp = null;
        for (int from = 0; from < size; ) {
            long prefix = packed[from] >>> INDEX_BITS;
            int to = from + 1;
            while (to < size && packed[to] >>> INDEX_BITS == prefix) {
                to++;
            }
            if (to - from > 1) { // keys equal in their prefix: longer ones, or the same key again
                if (tmp == null) {
                    tmp = new int[size];
                }
                mergeSort(order, tmp, from, to);
            }
            from = to;
        }
        return order;
    }

    private static final int PREFIX_BYTES = 5;
    private static final int INDEX_BITS = 64 - 8 * PREFIX_BYTES;

    /**
     * The key's first {@value #PREFIX_BYTES} bytes, unsigned, big-endian; a shorter key is padded
     * with zeros, so it sorts before every longer key it is a prefix of, or ties with it (then the
     * whole keys decide).
     */
    private static long prefix(byte[] key) {
        long p = 0;
        for (int i = 0; i < PREFIX_BYTES; i++) {
            p = p << 8 | (i < key.length ? key[i] & 0xFF : 0);
        }
        return p;
    }

    /** Stable sort of {@code order[from, to)} by whole key; {@code tmp} is scratch of the same length. */
    private void mergeSort(int[] order, int[] tmp, int from, int to) {
        if (to - from <= 16) {
            for (int i = from + 1; i < to; i++) { // insertion sort: stable, as only greater keys move
                int moving = order[i];
                int j = i - 1;
                while (j >= from && ByteKeys.compare(keys[order[j]], keys[moving]) > 0) {
                    order[j + 1] = order[j];
                    j--;
                }
                order[j + 1] = moving;
            }
            return;
        }
        int middle = (from + to) >>> 1;
        mergeSort(order, tmp, from, middle);
        mergeSort(order, tmp, middle, to);
        if (ByteKeys.compare(keys[order[middle - 1]], keys[order[middle]]) <= 0) {
            return; // already in order
        }
        System.arraycopy(order, from, tmp, from, to - from);
        int left = from;
        int right = middle;
        for (int out = from; out < to; out++) {
            // Equal keys take the left (earlier) one first: stable.
            if (right >= to || (left < middle && ByteKeys.compare(keys[tmp[left]], keys[tmp[right]]) <= 0)) {
                order[out] = tmp[left++];
            } else {
                order[out] = tmp[right++];
            }
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
