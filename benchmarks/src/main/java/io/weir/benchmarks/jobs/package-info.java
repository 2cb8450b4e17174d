/**
 * What a run times, one {@link io.weir.benchmarks.Job} per kind of workload: process an input,
 * restore a changelog, restart after SIGKILL, start to ready, peak memory, failover, scale-out,
 * savepoint; and the query workload, which runs its own systems.
 */
package io.weir.benchmarks.jobs;
