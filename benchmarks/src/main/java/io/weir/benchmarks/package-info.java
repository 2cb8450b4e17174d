/**
 * The benchmark harness: Weir beside Kafka Streams and bare clients on the same broker in the
 * same run, printing one JSON object per result line. A program, not a test.
 *
 * <p>This package holds the program ({@link io.weir.benchmarks.Benchmark}, its options and the
 * {@code WorkloadTable} from workload kind to systems and job), the vocabulary every other package
 * shares ({@link io.weir.benchmarks.Scenario}, {@link io.weir.benchmarks.Guarantee},
 * {@link io.weir.benchmarks.RunSpec}, {@link io.weir.benchmarks.SystemUnderTest},
 * {@link io.weir.benchmarks.Job}, {@link io.weir.benchmarks.RunResult}) and the executor that times
 * one run. {@code systems} holds the systems under test, {@code jobs} what a run times, {@code ysb}
 * the Yahoo Streaming Benchmark, {@code input} the inputs written, {@code verification} the output
 * watched, {@code report} the JSON lines.
 */
package io.weir.benchmarks;
