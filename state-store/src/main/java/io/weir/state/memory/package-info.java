/**
 * The in-memory bytes store (a sorted map), for stores declared {@code inMemory()} and the test
 * driver. Part of the state store's engine; may use {@code io.weir.state} and {@code
 * io.weir.state.internal}.
 */
package io.weir.state.memory;
