package io.weir.internal.operator.window;

import java.nio.ByteBuffer;
import java.util.Arrays;

/**
 * The key layout of a count-window store, which holds two kinds of entries:
 * <ul>
 *   <li>{@code [0x00][key bytes]} → the key's {@link CountWindowState} (see {@link CountWindowCodec});</li>
 *   <li>{@code [0x01][deadline: 8 bytes big-endian, sign bit flipped][key bytes]} → empty: the time
 *       index, one entry per key with open windows and a time-out, at its earliest deadline.</li>
 * </ul>
 * Flipping the sign bit makes the unsigned byte order of deadlines their numeric order (negative
 * times included), so the windows due at a watermark are a prefix of the index.
 */
public final class CountWindowKeys {

    static final byte STATE = 0x00;
    static final byte INDEX = 0x01;
    static final byte[] INDEX_PREFIX = {INDEX};

    private CountWindowKeys() {}

    static byte[] state(byte[] key) {
        byte[] k = new byte[1 + key.length];
        k[0] = STATE;
        System.arraycopy(key, 0, k, 1, key.length);
        return k;
    }

    static byte[] index(long deadline, byte[] key) {
        return ByteBuffer.allocate(1 + Long.BYTES + key.length)
                .put(INDEX)
                .putLong(deadline ^ Long.MIN_VALUE)
                .put(key)
                .array();
    }

    /** The deadline of an index entry's key. */
    static long deadline(byte[] indexKey) {
        return ByteBuffer.wrap(indexKey, 1, Long.BYTES).getLong() ^ Long.MIN_VALUE;
    }

    /** The record key bytes of an index entry's key. */
    static byte[] keyOfIndex(byte[] indexKey) {
        return Arrays.copyOfRange(indexKey, 1 + Long.BYTES, indexKey.length);
    }
}
