package io.weir.internal.state;

import static io.weir.internal.state.WindowKeys.readTime;
import static io.weir.internal.state.WindowKeys.writeTime;

import java.util.Arrays;

/**
 * The bytes layout of a session store: two entries per session in one bytes store, always written
 * and deleted together (so one commit changelogs both):
 * <ul>
 *   <li>primary {@code [0x01][key length: 4][key][end: 8][start: 8] -> value}: a key's sessions
 *       are one contiguous range, ordered by end; the length keeps key {@code "a"} from being a
 *       prefix of key {@code "ab"};</li>
 *   <li>time index {@code [0x00][end: 8][start: 8][key] -> empty}: every session ordered by end, so
 *       expiry and time-range scans read only the part of the store they need.</li>
 * </ul>
 * Times are 8 big-endian bytes with the sign bit flipped ({@link WindowKeys#timeBytes}), so byte
 * order is numeric order.
 */
final class SessionKeys {

    static final byte INDEX = 0x00;
    static final byte PRIMARY = 0x01;
    /** The prefix of every index entry. */
    static final byte[] INDEX_PREFIX = {INDEX};
    /** The value of every index entry. */
    static final byte[] INDEX_VALUE = new byte[0];

    private static final int TIMES = 2 * Long.BYTES;
    private static final int PRIMARY_HEADER = 1 + Integer.BYTES;

    private SessionKeys() {}

    /** The primary key of {@code key}'s session from {@code start} to {@code end}. */
    static byte[] primary(byte[] key, long start, long end) {
        byte[] p = primaryPrefix(key, TIMES);
        writeTime(p, PRIMARY_HEADER + key.length, end);
        writeTime(p, PRIMARY_HEADER + key.length + Long.BYTES, start);
        return p;
    }

    /** The common prefix of {@code key}'s primary entries. */
    static byte[] primaryPrefix(byte[] key) {
        return primaryPrefix(key, 0);
    }

    /** The smallest primary key of {@code key}'s sessions ending at or after {@code end}. */
    static byte[] primaryFrom(byte[] key, long end) {
        byte[] p = primaryPrefix(key, Long.BYTES);
        writeTime(p, PRIMARY_HEADER + key.length, end);
        return p;
    }

    private static byte[] primaryPrefix(byte[] key, int extra) {
        byte[] p = new byte[PRIMARY_HEADER + key.length + extra];
        p[0] = PRIMARY;
        int n = key.length;
        p[1] = (byte) (n >>> 24);
        p[2] = (byte) (n >>> 16);
        p[3] = (byte) (n >>> 8);
        p[4] = (byte) n;
        System.arraycopy(key, 0, p, PRIMARY_HEADER, n);
        return p;
    }

    static long primaryEnd(byte[] primary) {
        return readTime(primary, primary.length - TIMES);
    }

    static long primaryStart(byte[] primary) {
        return readTime(primary, primary.length - Long.BYTES);
    }

    /** The index key of {@code key}'s session from {@code start} to {@code end}. */
    static byte[] index(byte[] key, long start, long end) {
        byte[] i = new byte[1 + TIMES + key.length];
        i[0] = INDEX;
        writeTime(i, 1, end);
        writeTime(i, 1 + Long.BYTES, start);
        System.arraycopy(key, 0, i, 1 + TIMES, key.length);
        return i;
    }

    /** The smallest index key of the sessions ending at or after {@code end}. */
    static byte[] indexFrom(long end) {
        byte[] i = new byte[1 + Long.BYTES];
        i[0] = INDEX;
        writeTime(i, 1, end);
        return i;
    }

    static boolean isIndex(byte[] storeKey) {
        return storeKey.length >= 1 + TIMES && storeKey[0] == INDEX;
    }

    static long indexEnd(byte[] index) {
        return readTime(index, 1);
    }

    static long indexStart(byte[] index) {
        return readTime(index, 1 + Long.BYTES);
    }

    static byte[] indexKey(byte[] index) {
        return Arrays.copyOfRange(index, 1 + TIMES, index.length);
    }

    /** The primary key of the session an index key points to. */
    static byte[] primaryOf(byte[] index) {
        return primary(indexKey(index), indexStart(index), indexEnd(index));
    }
}
