package io.weir.internal.state;

import io.weir.state.internal.ByteKeys;
import io.weir.state.internal.BytesIterator;
import io.weir.state.internal.PendingStore;
import io.weir.state.internal.WriteBatch;

/**
 * Drops the sessions of a session store whose retention is over: a session ending at {@code e}
 * (its last record's time) expires once the watermark {@code w} reaches {@code e + retention}, so
 * the sessions with {@code e <= w - retention}. It walks only the expired part of the time index
 * ({@link SessionKeys}), and for each chunk of sessions deletes their primary entries and the
 * index range they occupy in one atomic write, so primary entries and index never disagree.
 */
final class SessionExpiry extends Expiry {

    /** Sessions per atomic write: bounds the memory of one drop after a long pause. */
    static final int CHUNK = 10_000;

    private final long retention;

    SessionExpiry(PendingStore store, long retention) {
        super(store);
        this.retention = retention;
    }

    @Override
    long lastExpired(long watermark) {
        return Math.subtractExact(watermark, retention);
    }

    @Override
    void drop(long lastExpired) {
        boolean more = true;
        while (more) {
            WriteBatch drops = new WriteBatch();
            byte[] last = null;
            try (BytesIterator index = store.prefix(SessionKeys.INDEX_PREFIX)) {
                while (index.hasNext() && drops.size() < CHUNK) {
                    byte[] i = index.peekNextKey();
                    if (SessionKeys.indexEnd(i) > lastExpired) {
                        break;
                    }
                    index.next();
                    drops.delete(SessionKeys.primaryOf(i));
                    last = i;
                }
                more = drops.size() == CHUNK && index.hasNext();
            }
            if (last == null) {
                return;
            }
            // the index is walked from its start, so every index entry up to the last one is in the chunk
            drops.deleteRange(SessionKeys.INDEX_PREFIX, ByteKeys.successor(last));
            store.dropCommitted(drops);
        }
    }

    @Override
    long readEarliest() {
        byte[] first = firstKey(store.prefix(SessionKeys.INDEX_PREFIX));
        return first == null ? Long.MAX_VALUE : SessionKeys.indexEnd(first);
    }
}
