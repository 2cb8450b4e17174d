package io.weir.state.internal;

import io.weir.common.KeyValue;
import java.util.NoSuchElementException;

/**
 * Base of the iterators that find their next entry one step ahead (merging, filtering, walking a
 * map): subclasses say how to {@link #fetch()} the next entry, and this class gives
 * {@code hasNext}, {@code next}, {@code peekNextKey} and the closed-state rules of
 * {@link io.weir.state.KeyValueIterator}.
 */
public abstract class LookaheadIterator implements BytesIterator {

    private KeyValue<byte[], byte[]> next;
    private boolean exhausted;
    private boolean closed;

    /** The next entry in iteration order, or {@code null} at the end. Not called again after null. */
    protected abstract KeyValue<byte[], byte[]> fetch();

    /** Throws if the source is no longer usable (its store closed); called by every operation. */
    protected void checkSource() {}

    /** Releases what the iterator holds; called once, by the first {@link #close()}. */
    protected void release() {}

    @Override
    public final boolean hasNext() {
        checkOpen();
        if (next == null && !exhausted) {
            next = fetch();
            exhausted = next == null;
        }
        return next != null;
    }

    @Override
    public final KeyValue<byte[], byte[]> next() {
        if (!hasNext()) {
            throw new NoSuchElementException();
        }
        KeyValue<byte[], byte[]> result = next;
        next = null;
        return result;
    }

    @Override
    public final byte[] peekNextKey() {
        if (!hasNext()) {
            throw new NoSuchElementException();
        }
        return next.key();
    }

    @Override
    public final void close() {
        if (!closed) {
            closed = true;
            next = null;
            release();
        }
    }

    private void checkOpen() {
        checkSource();
        if (closed) {
            throw new IllegalStateException("Iterator is closed");
        }
    }
}
