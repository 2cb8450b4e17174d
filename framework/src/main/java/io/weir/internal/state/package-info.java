/**
 * The stores of a task: typed views over the bytes stores, pending writes and their commit,
 * expiry of windows, sessions and TTL entries, checkpoints, the instance's state directory, and
 * the registry of stores readable from outside the stream threads. May use the topology and the
 * state store's engine.
 */
package io.weir.internal.state;
