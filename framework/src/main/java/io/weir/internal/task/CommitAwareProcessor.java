package io.weir.internal.task;

/**
 * A processor that holds results back between commits (a table forwarding its latest value per
 * key once per commit interval) and must forward them at step 1 of the commit, before outputs are
 * flushed and offsets committed. Internal: user processors forward as they go.
 */
public interface CommitAwareProcessor {

    void beforeCommit();

    /** The transaction committed what {@link #beforeCommit()} wrote. */
    default void committed() {}

    /** The transaction was aborted: drop what was held back, it belongs to the aborted work. */
    void afterAbort();
}
