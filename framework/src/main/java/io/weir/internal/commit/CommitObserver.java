package io.weir.internal.commit;

/**
 * Receives what the {@link Committer} did, for metrics. Called on the stream thread; must be cheap
 * and must not throw.
 */
public interface CommitObserver {

    /** A commit finished; {@code nanos} is its duration from step 1 to step 5. */
    void committed(long nanos);

    /** A transaction was aborted (or, without transactions, a commit was abandoned). */
    void aborted(String reason);

    /** Observes nothing. */
    CommitObserver NONE = new CommitObserver() {
        @Override
        public void committed(long nanos) {}

        @Override
        public void aborted(String reason) {}
    };
}
