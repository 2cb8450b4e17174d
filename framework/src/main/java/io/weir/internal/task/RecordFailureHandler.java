package io.weir.internal.task;

import org.apache.kafka.clients.consumer.ConsumerRecord;

/**
 * Decides what a failed record does to processing. Returns normally when the record was dealt
 * with (dead-lettered) and processing goes on; throws to stop the batch.
 */
public interface RecordFailureHandler {

    void onFailure(ConsumerRecord<byte[], byte[]> record, Stage stage, Throwable error);
}
