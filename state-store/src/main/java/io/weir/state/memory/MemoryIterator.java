package io.weir.state.memory;

import io.weir.common.KeyValue;
import io.weir.state.internal.LookaheadIterator;
import java.util.Iterator;
import java.util.Map;

/** Walks a skip-list view; fails once its store is closed. Weakly consistent, like the view. */
final class MemoryIterator extends LookaheadIterator {

    private final MemoryStore store;
    private final Iterator<Map.Entry<byte[], byte[]>> entries;

    MemoryIterator(MemoryStore store, Iterator<Map.Entry<byte[], byte[]>> entries) {
        this.store = store;
        this.entries = entries;
    }

    @Override
    protected KeyValue<byte[], byte[]> fetch() {
        if (!entries.hasNext()) {
            return null;
        }
        Map.Entry<byte[], byte[]> e = entries.next();
        return new KeyValue<>(e.getKey(), e.getValue());
    }

    @Override
    protected void checkSource() {
        store.checkOpen();
    }
}
