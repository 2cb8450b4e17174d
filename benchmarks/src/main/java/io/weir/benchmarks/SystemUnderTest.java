package io.weir.benchmarks;

import io.weir.benchmarks.systems.ChildCountRunner;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.OptionalLong;

/**
 * One of the compared stream processors, able to run the topology of {@link RunSpec#scenario()}
 * from an input topic to an output topic under a consumer group named
 * {@link RunSpec#applicationId()}.
 *
 * <p>Contract: {@link #start} returns once processing has been started (it may still be joining
 * the group); completion is observed from outside, through the group's committed offsets, so the
 * systems are measured the same way; a restore's end through {@link Running#restoredRecords()}.
 * {@link Running#close()} stops processing and releases every client and thread.
 */
public interface SystemUnderTest {

    /**
     * The name in the JSON output: {@code weir}, {@code kafka_streams} or {@code bare}; a system in
     * a child process ({@link ChildCountRunner}) has the name of the system it runs.
     */
    String name();

    /**
     * Starts processing {@code spec.inputTopic()} from the earliest offset.
     *
     * @throws UnsupportedOperationException if the system has no implementation of the scenario
     */
    Running start(RunSpec spec) throws Exception;

    /**
     * Off the clock, before {@link #start}: leaves on the cluster what an application of
     * {@code spec} that ran before would have left besides its changelogs (which the workload
     * writes itself), so that a restore run measures a restart on lost local state, not a first
     * start. Nothing by default.
     */
    default void prepareExistingApplication(RunSpec spec) throws Exception {}

    /** A started system; closing it stops processing. */
    interface Running extends AutoCloseable {

        /** The error that stopped processing, if it stopped by itself. */
        Optional<Throwable> failure();

        /**
         * Changelog records restored into the stores so far, as the system reports them itself (the
         * bare baseline: the changelog records it read, once it has read them all); the
         * restore scenario's clock stops when this reaches the changelog's size, so a system counts
         * them only as far as its tasks are ready to process (see the implementations).
         */
        default long restoredRecords() {
            return 0;
        }

        /**
         * Whether the system says it is ready to process (the start-to-ready workload): Weir in
         * state {@code RUNNING}, which is when {@code /health/ready} answers 200; Kafka Streams in
         * state {@code RUNNING}; a system in a child process as {@link ChildCountRunner} says.
         * Cheap enough to be polled every few milliseconds.
         *
         * @throws UnsupportedOperationException if the system cannot tell (the bare loop)
         */
        default boolean ready() {
            throw new UnsupportedOperationException("cannot tell whether it is ready");
        }

        /**
         * The active tasks the system says it runs, where it can tell: Weir's {@code /info} in a
         * child process with an HTTP port ({@link ChildCountRunner}); empty otherwise.
         */
        default OptionalInt activeTasks() {
            return OptionalInt.empty();
        }

        /**
         * The system's own measurements of the run (a {@code MetricsScraper}'s counts), in the order
         * of the run's JSON line; read once the clock has stopped, before {@link #close()}.
         */
        default Map<String, Object> details() {
            return Map.of();
        }

        /** The id of the operating-system process that runs the system, if it runs in its own. */
        default OptionalLong pid() {
            return OptionalLong.empty();
        }

        @Override
        void close() throws Exception;
    }
}
