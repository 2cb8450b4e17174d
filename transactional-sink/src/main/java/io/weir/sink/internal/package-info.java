/**
 * The commit protocol: the transactional sink that sends outputs and changelog records, commits
 * input offsets in the same transaction (EOS v2) in the design's numbered steps, handles fencing
 * and aborts, and the three weaker guarantees. Used by the framework's tasks; knows nothing of
 * them beyond {@code CommitUnit}.
 */
package io.weir.sink.internal;
