package io.weir.state.internal;

import java.util.Arrays;
import java.util.Comparator;

/**
 * The key order every store uses, and the bound arithmetic built on it: unsigned lexicographic
 * byte order, which is RocksDB's default {@code BytewiseComparator}, so an in-memory store and a
 * RocksDB store iterate the same keys in the same order.
 */
public final class ByteKeys {

    /** Unsigned lexicographic order; a proper prefix sorts before its extensions. */
    public static final Comparator<byte[]> ORDER = ByteKeys::compare;

    private ByteKeys() {}

    /** Compares {@code a} and {@code b} in {@link #ORDER}. */
    public static int compare(byte[] a, byte[] b) {
        return Arrays.compareUnsigned(a, b);
    }

    /** The smallest key greater than {@code key}: {@code key} followed by one zero byte. */
    public static byte[] successor(byte[] key) {
        return Arrays.copyOf(key, key.length + 1);
    }

    /**
     * The smallest key greater than every key that starts with {@code prefix} (an exclusive upper
     * bound for a prefix scan), or {@code null} if there is none (the prefix is empty or all
     * {@code 0xFF}): drop trailing {@code 0xFF} bytes and increment the last remaining one.
     */
    public static byte[] prefixEnd(byte[] prefix) {
        for (int i = prefix.length - 1; i >= 0; i--) {
            if (prefix[i] != (byte) 0xFF) {
                byte[] end = Arrays.copyOf(prefix, i + 1);
                end[i]++;
                return end;
            }
        }
        return null;
    }

    /** True if {@code from} and {@code to} are both set and {@code from > to}: the range is empty. */
    public static boolean isEmptyRange(byte[] from, byte[] to) {
        return from != null && to != null && compare(from, to) > 0;
    }
}
