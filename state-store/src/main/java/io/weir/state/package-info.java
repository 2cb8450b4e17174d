/**
 * The state stores as applications see them: key-value, window and session stores, their read-
 * only views and iterators, and windowed keys. Implemented by {@code io.weir.state.rocksdb} and
 * {@code io.weir.state.memory}; may use {@code io.weir.errors} and {@code io.weir.common} only.
 */
package io.weir.state;
