package io.weir.internal.task;

/**
 * Decides what a failed record does to processing. Returns normally when the record was dealt
 * with (skipped or dead-lettered) and processing goes on; throws to stop the batch.
 */
public interface RecordFailureHandler {

    void onFailure(RecordFailure failure);
}
