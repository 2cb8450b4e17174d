package io.weir.state.internal;

import io.weir.common.KeyValue;

/**
 * Merges a snapshot of pending writes (sorted in iteration order, tombstones included) with an
 * iterator of the committed store: on equal keys the pending write wins, and a tombstone hides
 * the committed entry. Works in either direction; the direction only flips the comparison.
 */
final class MergingIterator extends LookaheadIterator {

    private final byte[][] pendingKeys;
    private final byte[][] pendingValues;
    private final BytesIterator committed;
    private final int direction;
    private int pos;

    /**
     * @param pendingKeys   keys of the pending snapshot, in iteration order
     * @param pendingValues their values, {@link PendingStore#isTombstone tombstones} for deletes
     * @param committed     the committed store's iterator over the same range and direction
     */
    MergingIterator(byte[][] pendingKeys, byte[][] pendingValues, BytesIterator committed, boolean reverse) {
        this.pendingKeys = pendingKeys;
        this.pendingValues = pendingValues;
        this.committed = committed;
        this.direction = reverse ? -1 : 1;
    }

    @Override
    protected KeyValue<byte[], byte[]> fetch() {
        while (true) {
            boolean hasPending = pos < pendingKeys.length;
            boolean hasCommitted = committed.hasNext();
            if (!hasPending && !hasCommitted) {
                return null;
            }
            int order = !hasPending
                    ? 1
                    : !hasCommitted ? -1 : direction * ByteKeys.compare(pendingKeys[pos], committed.peekNextKey());
            if (order > 0) {
                return committed.next();
            }
            if (order == 0) {
                committed.next(); // shadowed by the pending write
            }
            byte[] key = pendingKeys[pos];
            byte[] value = pendingValues[pos];
            pos++;
            if (!PendingStore.isTombstone(value)) {
                return new KeyValue<>(key, value);
            }
        }
    }

    @Override
    protected void release() {
        committed.close();
    }
}
