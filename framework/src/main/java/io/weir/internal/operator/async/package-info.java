/**
 * Asynchronous steps: records whose processing waits on another service, run without blocking
 * the stream thread, in per-key, per-task or no order, with their calls in flight kept in a
 * changelogged store so that what reaches Kafka stays exactly once.
 */
package io.weir.internal.operator.async;
