/**
 * The byte-level engine under every store: the bytes store contract, write batches and pending
 * writes, the read cache, TTL encoding and merging iterators. Used by the store implementations,
 * the changelog restore and the framework's typed stores; not for applications. May use {@code
 * io.weir.state}, {@code io.weir.errors} and {@code io.weir.common}.
 */
package io.weir.state.internal;
