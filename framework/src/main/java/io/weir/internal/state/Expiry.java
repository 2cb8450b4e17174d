package io.weir.internal.state;

import io.weir.state.internal.BytesIterator;
import io.weir.state.internal.PendingStore;

/**
 * Drops what a window or session store holds past its retention, from the committed store only:
 * a local clean-up, not changelogged (the changelog topic has a time retention of its own, and
 * the DSL ignores closed windows whether or not they are still stored). Runs right after a commit,
 * when nothing is pending.
 *
 * <p>Cheap when nothing expired: it keeps a lower bound of the earliest time in the store (read
 * once from the store, lowered by every write) and touches the store only when the cutoff passes
 * it; after a drop it reads the new earliest time with one seek.
 *
 * <p>Owned by the task's thread.
 */
abstract class Expiry {

    final PendingStore store;
    private boolean earliestKnown;
    /** No time in the store (pending writes included) is below this, once known; MAX for an empty store. */
    private long earliest;

    Expiry(PendingStore store) {
        this.store = store;
    }

    /** Told the time (window start, session end) of each write, before it is committed. */
    final void observe(long time) {
        if (earliestKnown && time < earliest) {
            earliest = time;
        }
    }

    /**
     * Drops everything whose time (window start, session end) is at or below
     * {@link #lastExpired(long)}, in one or a few atomic writes that leave the changelog offset
     * unchanged.
     *
     * @return true if it wrote to the store
     * @throws IllegalStateException if writes are pending in what expires (call it after a commit)
     */
    final boolean dropExpired(long watermark) {
        long lastExpired;
        try {
            lastExpired = lastExpired(watermark);
        } catch (ArithmeticException beforeAnyTime) {
            return false; // the watermark is so early that nothing can have expired
        }
        if (!earliestKnown) {
            earliest = readEarliest();
            earliestKnown = true;
        }
        if (earliest > lastExpired) {
            return false;
        }
        drop(lastExpired);
        earliest = readEarliest();
        return true;
    }

    /**
     * The latest time (window start, session end) that has expired at {@code watermark}.
     *
     * @throws ArithmeticException if it would be below {@link Long#MIN_VALUE}: nothing has expired
     */
    abstract long lastExpired(long watermark);

    /** Drops every entry whose time is at or below {@code lastExpired}. */
    abstract void drop(long lastExpired);

    /** The earliest time in the store (pending writes included), or MAX if it is empty. */
    abstract long readEarliest();

    /** The key of the first entry of {@code it} (closed here), or null. */
    static byte[] firstKey(BytesIterator it) {
        try (it) {
            return it.hasNext() ? it.peekNextKey() : null;
        }
    }
}
