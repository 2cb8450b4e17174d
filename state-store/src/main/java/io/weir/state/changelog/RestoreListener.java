package io.weir.state.changelog;

/**
 * Progress of one {@link ChangelogRestorer#restore} call, for logs, metrics and readiness. Called
 * on the restoring thread; implementations must be quick and must not throw.
 */
public interface RestoreListener {

    /** A listener that ignores everything. */
    RestoreListener NONE = new RestoreListener() {};

    /** Restore starts at {@code startOffset} and will end at {@code endOffset} (exclusive). */
    default void onStart(long startOffset, long endOffset) {}

    /**
     * A batch was applied.
     *
     * @param restoredSoFar records applied so far in this call
     * @param remaining     offsets left before the end offset (records, markers and aborted
     *                      records, so an upper bound on the records still to come)
     */
    default void onBatch(long restoredSoFar, long remaining) {}

    /**
     * A chunk of a bulk load ({@link RestoreSession.BulkLoad}) was ingested: {@code records} of the
     * records counted by the {@link #onBatch} call that follows went into the store that way.
     */
    default void onIngested(long records) {}

    /**
     * A record of a source topic ({@link SourceRecords}) was skipped, as processing rejected it:
     * it never entered the store.
     */
    default void onSkipped(long offset) {}

    /** Restore reached its end offset, having applied {@code restored} records in {@code millis}. */
    default void onDone(long restored, long millis) {}
}
