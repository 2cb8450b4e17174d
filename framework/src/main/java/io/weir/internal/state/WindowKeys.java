package io.weir.internal.state;

import java.util.Arrays;

/**
 * The bytes layout of a window store: {@code [start: 8][serialized key] -> value}, where
 * {@code start} is the window start as 8 big-endian bytes with the sign bit flipped, so that the
 * unsigned byte order of the stores is the numeric order of the start, negative times first.
 * Every window is thus ordered by start, then by key bytes; expiry is one range delete of the
 * starts below a cutoff, and a time-range scan is one range scan. Compared with Kafka Streams'
 * window store (key first, in time segments), a lookup of one key across many starts scans every
 * key's windows in that time range.
 */
final class WindowKeys {

    /** The smallest composite key: start {@link Long#MIN_VALUE}, empty key. */
    static final byte[] MIN = timeBytes(Long.MIN_VALUE);

    private WindowKeys() {}

    /** The store key of {@code key}'s window starting at {@code start}. */
    static byte[] key(long start, byte[] key) {
        byte[] composite = Arrays.copyOf(timeBytes(start), Long.BYTES + key.length);
        System.arraycopy(key, 0, composite, Long.BYTES, key.length);
        return composite;
    }

    /**
     * The smallest store key of the windows starting at {@code start}: the inclusive lower bound of
     * a scan from {@code start}, and the exclusive upper bound of one that ends before it.
     */
    static byte[] startBound(long start) {
        return timeBytes(start);
    }

    /** The window start of a store key. */
    static long start(byte[] composite) {
        return readTime(composite, 0);
    }

    /** The serialized key of a store key. */
    static byte[] keyBytes(byte[] composite) {
        return Arrays.copyOfRange(composite, Long.BYTES, composite.length);
    }

    /** True if the store key holds exactly {@code key}. */
    static boolean hasKey(byte[] composite, byte[] key) {
        return Arrays.equals(composite, Long.BYTES, composite.length, key, 0, key.length);
    }

    /** {@code time} as 8 big-endian bytes with the sign bit flipped: byte order is numeric order. */
    static byte[] timeBytes(long time) {
        byte[] b = new byte[Long.BYTES];
        writeTime(b, 0, time);
        return b;
    }

    static void writeTime(byte[] b, int offset, long time) {
        long v = time ^ Long.MIN_VALUE;
        for (int i = Long.BYTES - 1; i >= 0; i--) {
            b[offset + i] = (byte) v;
            v >>>= 8;
        }
    }

    static long readTime(byte[] b, int offset) {
        long v = 0;
        for (int i = 0; i < Long.BYTES; i++) {
            v = (v << 8) | (b[offset + i] & 0xFF);
        }
        return v ^ Long.MIN_VALUE;
    }
}
