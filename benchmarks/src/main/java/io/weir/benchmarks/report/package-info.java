/**
 * The output: one JSON object per line on stdout for each run and one summary per workload and
 * guarantee, with the medians of the successful runs.
 */
package io.weir.benchmarks.report;
