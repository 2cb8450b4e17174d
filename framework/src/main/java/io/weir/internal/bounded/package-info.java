/**
 * Bounded runs ({@code run.mode=bounded}): the plan (end offsets taken at start, the order of
 * sub-topologies), each thread's end of the run, and the run's progress and summary. May use the
 * thread room and those below.
 */
package io.weir.internal.bounded;
