/** The Yahoo Streaming Benchmark, one of the seeds' applications: its data, its job and its checker. */
package io.weir.samples.ysb;
