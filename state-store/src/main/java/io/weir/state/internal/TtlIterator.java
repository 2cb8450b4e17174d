package io.weir.state.internal;

import java.util.function.LongSupplier;

import io.weir.state.Entry;

/** Skips expired entries of a TTL store and strips the expiry prefix from the others. */
final class TtlIterator extends LookaheadIterator {

    private final BytesIterator stored;
    private final LongSupplier clock;

    TtlIterator(BytesIterator stored, LongSupplier clock) {
        this.stored = stored;
        this.clock = clock;
    }

    @Override
    protected Entry<byte[], byte[]> fetch() {
        long now = clock.getAsLong();
        while (stored.hasNext()) {
            Entry<byte[], byte[]> e = stored.next();
            if (!TtlCodec.isExpired(e.value(), now)) {
                return new Entry<>(e.key(), TtlCodec.value(e.value()));
            }
        }
        return null;
    }

    @Override
    protected void release() {
        stored.close();
    }
}
