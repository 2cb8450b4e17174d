package io.weir.state.internal;

/**
 * Read access to a store of raw keys and values, ordered by {@link ByteKeys#ORDER}. Implemented by
 * the committed stores ({@link BytesStore}), by the pending-writes overlay ({@link PendingStore})
 * and by the TTL view ({@link TtlStore}), so a typed store can sit on any of them.
 *
 * <p>Guarantees: range bounds are inclusive, a {@code null} bound is open, and a range whose
 * {@code from} is after its {@code to} is empty. Returned arrays must not be modified by the
 * caller. Thread-safety and visibility of concurrent writes are said by each implementation.
 */
public interface BytesReader {

    /** The value stored for {@code key}, or {@code null}. */
    byte[] get(byte[] key);

    /** Entries with {@code from <= key <= to}, ascending, or descending if {@code reverse}. */
    BytesIterator range(byte[] from, byte[] to, boolean reverse);

    /** Entries whose key starts with {@code prefix}, ascending; an empty prefix is every entry. */
    BytesIterator prefix(byte[] prefix);

    /** Every entry, ascending, or descending if {@code reverse}. */
    default BytesIterator all(boolean reverse) {
        return range(null, null, reverse);
    }

    /** A cheap estimate of the number of entries (may count overwritten or deleted ones); never negative. */
    long approximateCount();
}
