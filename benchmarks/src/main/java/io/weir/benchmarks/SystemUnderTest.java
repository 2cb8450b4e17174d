package io.weir.benchmarks;

import java.util.Optional;

/**
 * One of the compared stream processors, able to run the stateless map from an input topic to an
 * output topic under a consumer group named {@link RunSpec#applicationId()}.
 *
 * <p>Contract: {@link #start} returns once processing has been started (it may still be joining
 * the group); completion is observed from outside, through the group's committed offsets, so the
 * three systems are measured the same way. {@link Running#close()} stops processing and releases
 * every client and thread.
 */
interface SystemUnderTest {

    /** The name in the JSON output: {@code weir}, {@code kafka_streams} or {@code bare}. */
    String name();

    /** Starts processing {@code spec.inputTopic()} from the earliest offset. */
    Running start(RunSpec spec) throws Exception;

    /** A started system; closing it stops processing. */
    interface Running extends AutoCloseable {

        /** The error that stopped processing, if it stopped by itself. */
        Optional<Throwable> failure();

        @Override
        void close() throws Exception;
    }
}
