package io.weir.internal.state;

import io.weir.state.internal.PendingStore;

/**
 * Drops the windows of a window store whose retention is over: a window starting at {@code s}
 * expires once the watermark {@code w} reaches its end plus the retention,
 * {@code s + windowSize + retention <= w}. Since the {@link WindowKeys} layout orders the store by
 * start, that is one range delete of the starts {@code <= w - windowSize - retention}.
 */
final class WindowExpiry extends Expiry {

    private final long windowSize;
    private final long retention;

    WindowExpiry(PendingStore store, long windowSize, long retention) {
        super(store);
        this.windowSize = windowSize;
        this.retention = retention;
    }

    @Override
    long lastExpired(long watermark) {
        return Math.subtractExact(Math.subtractExact(watermark, windowSize), retention);
    }

    /** {@code lastExpired < MAX}, since the window size is positive: {@code + 1} cannot overflow. */
    @Override
    void drop(long lastExpired) {
        store.dropCommittedRange(WindowKeys.MIN, WindowKeys.startBound(lastExpired + 1));
    }

    @Override
    long readEarliest() {
        byte[] first = firstKey(store.all(false));
        return first == null ? Long.MAX_VALUE : WindowKeys.start(first);
    }
}
