package io.weir.sink.internal;

import java.util.Map;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;

/**
 * What the commit needs from one unit of work (a task): its part in the five steps of the commit.
 *
 * <p>Threading: every method is called by the stream thread that owns the unit and the sink,
 * never concurrently.
 */
public interface CommitUnit {

    /** Step 1: finish the records in flight and fire the timers that are due. */
    void completeInFlight();

    /** Step 2: send the unit's pending changelog records through the sink (outputs went already). */
    default void sendPendingChangelog() {
    }

    /**
     * Step 3's input: for each input partition that advanced since the last commit, the offset of
     * the next record to process. Empty when nothing advanced.
     */
    Map<TopicPartition, OffsetAndMetadata> committableOffsets();

    /**
     * Step 5: the commit is durable in Kafka; make local state match it (apply pending write
     * batches with the changelog offsets they reached) and remember the offsets as committed.
     */
    void onCommitted();

    /**
     * The transaction was aborted or the commit failed: drop pending state changes and rewind the
     * inputs to the last committed offsets, so the records are processed again.
     */
    void onAborted();
}
