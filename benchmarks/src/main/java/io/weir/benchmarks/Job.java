package io.weir.benchmarks;

import java.util.Optional;

/**
 * What a {@link RunExecutor} times, per workload kind: the topic the system reads, the number of
 * records its throughput is counted over, what to prepare off the clock, and when the clock
 * stops. {@link ProcessingJob}: process an input (map, count); {@link RestoreJob}: restore a
 * changelog into an empty store.
 */
interface Job {

    Scenario scenario();

    /** The topic the system under test consumes. */
    InputTopic input();

    /** The records a run's throughput is counted over. */
    long records();

    /** Off the clock, before the system starts, under the run's application id. */
    default void prepare(String applicationId) {
    }

    /**
     * Returns when the timed work is done.
     *
     * @throws IllegalStateException if the system fails or {@code deadlineNanos} passes first
     */
    void await(RunSpec spec, SystemUnderTest.Running running, long deadlineNanos) throws InterruptedException;

    /** Off the clock, after the system stopped: what is wrong with the output, or empty. */
    default Optional<String> verify(RunSpec spec) {
        return Optional.empty();
    }
}
