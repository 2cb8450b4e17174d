package io.weir.state.rocksdb;

import io.weir.common.KeyValue;
import io.weir.state.internal.LookaheadIterator;

/** The iterator of an empty range; still fails once the store is closed. */
final class EmptyIterator extends LookaheadIterator {

    private final CloseGuard guard;

    EmptyIterator(CloseGuard guard) {
        this.guard = guard;
    }

    @Override
    protected KeyValue<byte[], byte[]> fetch() {
        return null;
    }

    @Override
    protected void checkSource() {
        guard.checkOpen();
    }
}
