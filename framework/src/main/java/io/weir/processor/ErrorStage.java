package io.weir.processor;

/**
 * Where a record failed: the stage an {@link ErrorHandler} is told and the dead-letter header
 * {@code weir.error.stage} names (in lower case).
 */
public enum ErrorStage {
    /** The source's key or value serde could not read the record (Kafka Streams' deserialization handler). */
    DESERIALIZE,
    /** The timestamp extractor failed, or gave a time below 0. */
    TIMESTAMP,
    /** A processor threw while processing the record (Kafka Streams' processing handler, KIP-1033). */
    PROCESS,
    /** An asynchronous step's call failed for good (time-outs and retries spent). */
    CALL,
    /**
     * A sink could not produce one of the record's outputs: its serde failed, the output is larger
     * than its topic accepts, or the topic does not exist (Kafka Streams' production handler).
     */
    PRODUCE
}
