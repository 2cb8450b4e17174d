package io.weir.state.internal;

import io.weir.common.KeyValue;
import java.util.function.LongSupplier;

/** Skips expired entries of a TTL store and strips the expiry prefix from the others. */
final class TtlIterator extends LookaheadIterator {

    private final BytesIterator stored;
    private final LongSupplier clock;

    TtlIterator(BytesIterator stored, LongSupplier clock) {
        this.stored = stored;
        this.clock = clock;
    }

    @Override
    protected KeyValue<byte[], byte[]> fetch() {
        long now = clock.getAsLong();
        while (stored.hasNext()) {
            KeyValue<byte[], byte[]> e = stored.next();
            if (!TtlCodec.isExpired(e.value(), now)) {
                return new KeyValue<>(e.key(), TtlCodec.value(e.value()));
            }
        }
        return null;
    }

    @Override
    protected void release() {
        stored.close();
    }
}
