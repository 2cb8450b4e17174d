package io.weir.benchmarks.enrich;

import io.weir.benchmarks.SystemUnderTest;
import java.nio.file.Path;

/**
 * One way of running the enrichment job: read {@link Run#inputTopic()}, call the lookup service
 * with each record's key, write {@code value,answer} under the same key to {@link Run#outputTopic()},
 * exactly once, one processing thread (Parallel Consumer: one consumer, its worker pool).
 */
interface EnrichSystem {

    /** Its name in the results. */
    String name();

    /**
     * The bound on calls in flight at once (1 for the synchronous systems), which the ceiling
     * ({@code bound / mean latency}) is computed from.
     */
    int inFlightBound();

    /** Whether its calls are made one at a time on the processing thread. */
    default boolean synchronous() {
        return inFlightBound() == 1;
    }

    /** Starts it on {@code run}; closing what it returns stops it (committing what it did). */
    SystemUnderTest.Running start(Run run) throws Exception;

    /** What one run works on. */
    record Run(
            String bootstrapServers,
            String applicationId,
            String inputTopic,
            String outputTopic,
            Path stateDir,
            LookupClient lookups) {}
}
