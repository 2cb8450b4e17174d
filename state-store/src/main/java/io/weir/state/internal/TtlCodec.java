package io.weir.state.internal;

import java.nio.ByteBuffer;
import java.util.Arrays;

/**
 * The stored form of a value in a store with a time-to-live: an 8-byte big-endian expiry time
 * (epoch milliseconds, in the store's clock) followed by the value. The expiry travels with the
 * value into the changelog, so a restored entry expires when the original would have.
 */
public final class TtlCodec {

    /** Length of the expiry prefix. */
    public static final int PREFIX = Long.BYTES;

    private TtlCodec() {}

    /** {@code value} stamped to expire at {@code expiresAt}. */
    public static byte[] encode(long expiresAt, byte[] value) {
        byte[] stored = new byte[PREFIX + value.length];
        ByteBuffer.wrap(stored).putLong(expiresAt);
        System.arraycopy(value, 0, stored, PREFIX, value.length);
        return stored;
    }

    /** The expiry time of a stored value. */
    public static long expiresAt(byte[] stored) {
        check(stored);
        return ByteBuffer.wrap(stored).getLong(0);
    }

    /** True if a stored value has expired at {@code now}: {@code now >= expiresAt}. */
    public static boolean isExpired(byte[] stored, long now) {
        return now >= expiresAt(stored);
    }

    /** The value without its expiry prefix (a copy). */
    public static byte[] value(byte[] stored) {
        check(stored);
        return Arrays.copyOfRange(stored, PREFIX, stored.length);
    }

    private static void check(byte[] stored) {
        if (stored.length < PREFIX) {
            throw new IllegalArgumentException("Not a TTL-stamped value: " + stored.length + " bytes");
        }
    }
}
