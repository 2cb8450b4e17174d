package io.weir.internal.commit;

import io.weir.sink.internal.CommitAbortedException;
import io.weir.sink.internal.TaskMigratedException;
import io.weir.sink.internal.TransactionalSink;
import java.util.Collection;

/**
 * Commits the work of a stream thread's tasks, all together, in DESIGN.md's five steps; or aborts
 * it and rewinds them. Calls go one way: the committer calls the tasks ({@link CommitUnit}), which
 * write into the thread's {@link OpenTransaction}; the committer calls the sink. Neither the sink
 * nor the open transaction calls back.
 *
 * <p>A failed commit is not aborted here: the thread's recovery policy aborts it (with
 * {@link #abort}) once, whatever failed.
 *
 * <p>Threading: owned by one stream thread, like its sink and units; not thread-safe.
 */
public final class Committer {

    private final TransactionalSink sink;
    private final OpenTransaction transaction;
    private final CommitObserver observer;

    public Committer(TransactionalSink sink, CommitObserver observer) {
        this.sink = sink;
        this.transaction = new OpenTransaction(sink);
        this.observer = observer;
    }

    /** The open transaction the thread's tasks write into. */
    public OpenTransaction transaction() {
        return transaction;
    }

    /**
     * Commits the work of {@code units}.
     *
     * @return true if anything was committed; false if nothing was sent and no offset moved
     * @throws TaskMigratedException if this thread was fenced; nothing was committed
     * @throws CommitAbortedException if the commit failed otherwise; nothing was committed
     */
    public boolean commit(Collection<? extends CommitUnit> units) {
        long start = System.nanoTime();
        // 1. Finish the records in flight and fire what is due (results held back, markers).
        units.forEach(CommitUnit::finishInFlight);
        // 2. Send the pending changelog records (outputs went as they were made); flush.
        units.forEach(CommitUnit::writePendingChangelog);
        sink.flush();
        // 3. The next input offsets, in the transaction, with the consumer's group metadata.
        units.forEach(CommitUnit::writeNextOffsets);
        if (!transaction.hasWork()) {
            return false;
        }
        sink.sendOffsets(transaction.takeOffsets());
        // 4. Commit: outputs, changelog records and offsets become visible together.
        sink.commitTransaction();
        // 5. Local state follows what Kafka now holds (each store's batch with its changelog offset).
        units.forEach(CommitUnit::committed);
        observer.committed(System.nanoTime() - start);
        return true;
    }

    /** Aborts the open transaction (if any) and rewinds every unit to its last commit. */
    public void abort(Collection<? extends CommitUnit> units, String reason) {
        sink.abort();
        transaction.clear();
        units.forEach(CommitUnit::aborted);
        observer.aborted(reason);
    }
}
