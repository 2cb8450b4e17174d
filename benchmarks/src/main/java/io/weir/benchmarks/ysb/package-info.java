/**
 * The Yahoo Streaming Benchmark: its events and their generator, the topology in both systems, the
 * windows it must produce and the output as read back, and the job that offers a ladder of rates.
 */
package io.weir.benchmarks.ysb;
