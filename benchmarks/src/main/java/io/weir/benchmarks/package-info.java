/**
 * The benchmark harness: Weir beside Kafka Streams and bare clients on the same broker in the
 * same run, printing one JSON object per result line. A program, not a test.
 */
package io.weir.benchmarks;
