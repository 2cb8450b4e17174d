package io.weir.internal.commit;

/**
 * A task's part in its thread's commit, called by the {@link Committer} only. A unit writes into
 * the thread's {@link OpenTransaction} (given to it when it was made), never into the committer
 * or the sink, so calls go one way.
 *
 * <p>Threading: every method is called by the stream thread that owns the unit, never
 * concurrently.
 */
public interface CommitUnit {

    /**
     * Step 1: finish the records in flight and fire what is due (results held back for the
     * commit, watermark markers), writing what that sends into the open transaction.
     */
    void finishInFlight();

    /** Step 2: write the unit's pending changelog records into the open transaction. */
    void writePendingChangelog();

    /**
     * Step 3's input: write into the open transaction, for each input partition that advanced
     * since the last commit (or whose committed metadata changed), the offset of the next record
     * to process.
     */
    void writeNextOffsets();

    /**
     * Step 5: the transaction is durable in Kafka; make local state match it (apply pending write
     * batches with the changelog offsets they reached) and remember the offsets as committed.
     */
    void committed();

    /**
     * The transaction was aborted: drop pending state changes and rewind the inputs to the last
     * committed offsets, so the records are processed again.
     */
    void aborted();
}
