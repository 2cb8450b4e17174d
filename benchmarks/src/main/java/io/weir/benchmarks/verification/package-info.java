/**
 * Watching the output from outside, the same way for every system: when a run is complete
 * (committed offsets and output), whether its output is right, and how long it paused.
 */
package io.weir.benchmarks.verification;
