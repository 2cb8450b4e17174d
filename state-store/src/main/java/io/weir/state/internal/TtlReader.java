package io.weir.state.internal;

import io.weir.common.KeyValue;
import java.util.ArrayList;
import java.util.List;
import java.util.function.LongSupplier;

/**
 * A read view of a store whose values are {@link TtlCodec TTL-stamped}: expired entries are
 * invisible at once to every read, without waiting for their deletion, and {@link #expiredKeys}
 * finds them so that the owner can delete them through the normal, changelogged write path.
 * Like Flink's state TTL with {@code NeverReturnExpired}; expiry is decided by the given clock.
 *
 * <p>Guarantees: an entry is visible while {@code clock < expiresAt}; returned values are unstamped
 * copies. {@link #approximateCount()} counts expired entries not yet deleted. Threads: as the
 * underlying reader; {@link #expiredKeys} keeps a cursor and is for the owning thread only.
 */
public final class TtlReader implements BytesReader {

    private final BytesReader stored;
    private final LongSupplier clock;
    private byte[] cursor;

    /** Reads {@code stored}, hiding what has expired according to {@code clock} (epoch millis). */
    public TtlReader(BytesReader stored, LongSupplier clock) {
        this.stored = stored;
        this.clock = clock;
    }

    @Override
    public byte[] get(byte[] key) {
        byte[] value = stored.get(key);
        return value == null || TtlCodec.isExpired(value, clock.getAsLong()) ? null : TtlCodec.value(value);
    }

    @Override
    public BytesIterator range(byte[] from, byte[] to, boolean reverse) {
        return new TtlIterator(stored.range(from, to, reverse), clock);
    }

    @Override
    public BytesIterator prefix(byte[] prefix) {
        return new TtlIterator(stored.prefix(prefix), clock);
    }

    @Override
    public long approximateCount() {
        return stored.approximateCount();
    }

    /**
     * Up to {@code max} keys whose entries have expired at {@code now}, found by a sweep that
     * resumes where the previous call stopped and wraps around at the end of the store, so that
     * repeated calls with a small {@code max} eventually visit every key. A call costs a scan of
     * the entries between the cursor and the {@code max}-th expired one (or the end).
     */
    public List<byte[]> expiredKeys(long now, int max) {
        List<byte[]> expired = new ArrayList<>();
        if (max <= 0) {
            return expired;
        }
        boolean wrapped = cursor == null;
        byte[] start = cursor;
        while (true) {
            try (BytesIterator it = stored.range(start, null, false)) {
                while (it.hasNext()) {
                    KeyValue<byte[], byte[]> e = it.next();
                    if (TtlCodec.isExpired(e.value(), now)) {
                        expired.add(e.key());
                        if (expired.size() == max) {
                            cursor = ByteKeys.successor(e.key());
                            return expired;
                        }
                    }
                }
            }
            cursor = null;
            if (wrapped) {
                return expired;
            }
            // The first pass started mid-store and reached the end: hand back what it found, or
            // if nothing, sweep once from the beginning.
            wrapped = true;
            start = null;
            if (!expired.isEmpty()) {
                return expired;
            }
        }
    }
}
