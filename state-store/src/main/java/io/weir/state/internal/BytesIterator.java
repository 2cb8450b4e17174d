package io.weir.state.internal;

import io.weir.state.KeyValueIterator;

/**
 * A {@link KeyValueIterator} over raw keys and values, as every bytes-level store returns. Callers
 * must not modify the arrays it returns (implementations may hand out the arrays they hold).
 */
public interface BytesIterator extends KeyValueIterator<byte[], byte[]> {}
