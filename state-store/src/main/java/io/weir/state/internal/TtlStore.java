package io.weir.state.internal;

import java.time.Duration;
import java.util.List;
import java.util.function.LongSupplier;

/**
 * A {@link BytesMap} whose entries expire a fixed time after they were last written: each write
 * stamps the value with {@code clock + ttl} ({@link TtlCodec}), reads hide what has expired
 * ({@link TtlReader}), and {@link #expiredKeys} lists expired keys to delete with {@link #delete},
 * which goes into the changelog like any other delete.
 *
 * <p>Guarantees: as {@link TtlReader} for reads, as the wrapped map for writes. Not thread-safe.
 */
public final class TtlStore implements BytesMap {

    private final BytesMap stored;
    private final TtlReader reader;
    private final long ttlMillis;
    private final LongSupplier clock;

    /**
     * @param stored the map that holds stamped values (usually a {@link PendingStore})
     * @param ttl    how long an entry lives after its last write; positive
     * @param clock  current time in epoch milliseconds (processing time or stream time)
     */
    public TtlStore(BytesMap stored, Duration ttl, LongSupplier clock) {
        if (ttl.isNegative() || ttl.isZero()) {
            throw new IllegalArgumentException("TTL must be positive: " + ttl);
        }
        this.stored = stored;
        this.reader = new TtlReader(stored, clock);
        this.ttlMillis = ttl.toMillis();
        this.clock = clock;
    }

    @Override
    public void put(byte[] key, byte[] value) {
        if (value == null) {
            stored.delete(key);
        } else {
            long now = clock.getAsLong();
            // saturate rather than overflow into the past for huge TTLs
            long expiresAt = now > Long.MAX_VALUE - ttlMillis ? Long.MAX_VALUE : now + ttlMillis;
            stored.put(key, TtlCodec.encode(expiresAt, value));
        }
    }

    @Override
    public void delete(byte[] key) {
        stored.delete(key);
    }

    @Override
    public byte[] get(byte[] key) {
        return reader.get(key);
    }

    @Override
    public BytesIterator range(byte[] from, byte[] to, boolean reverse) {
        return reader.range(from, to, reverse);
    }

    @Override
    public BytesIterator prefix(byte[] prefix) {
        return reader.prefix(prefix);
    }

    @Override
    public long approximateCount() {
        return reader.approximateCount();
    }

    /** See {@link TtlReader#expiredKeys}. */
    public List<byte[]> expiredKeys(long now, int max) {
        return reader.expiredKeys(now, max);
    }
}
