package io.weir.processor;

import java.util.Optional;

/**
 * A record that failed, as an {@link ErrorHandler} sees it: the input record as read from Kafka,
 * the node of the topology it failed in, and the error. The arrays are the input's own: do not
 * modify them.
 *
 * @param stage     where it failed
 * @param processor the name of the topology node it failed in: the source for
 *                  {@link ErrorStage#DESERIALIZE} and {@link ErrorStage#TIMESTAMP}, the sink for
 *                  {@link ErrorStage#PRODUCE}, the asynchronous step for {@link ErrorStage#CALL},
 *                  the processor that threw for {@link ErrorStage#PROCESS}, the global table's store
 *                  for a record of a global table's topic; empty if unknown
 * @param task      the task that processed it; {@code null} for a record of a global table's topic,
 *                  which no task reads
 * @param topic     the input record's topic
 * @param partition its partition
 * @param offset    its offset
 * @param timestamp its Kafka timestamp
 * @param key       its key bytes, as consumed (may be {@code null})
 * @param value     its value bytes, as consumed (may be {@code null})
 * @param headers   its headers, as consumed
 * @param processed the typed record the failing node was given, when there was one: absent for
 *                  {@link ErrorStage#DESERIALIZE} and {@link ErrorStage#TIMESTAMP}
 * @param error     what was thrown (the serde's, processor's or sink's own exception)
 */
public record FailedRecord(
        ErrorStage stage,
        String processor,
        TaskId task,
        String topic,
        int partition,
        long offset,
        long timestamp,
        byte[] key,
        byte[] value,
        Headers headers,
        Optional<Record<?, ?>> processed,
        Throwable error) {}
