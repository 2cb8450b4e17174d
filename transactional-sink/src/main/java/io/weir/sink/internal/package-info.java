/**
 * The commit protocol's calls to Kafka: the transactional sink that sends outputs and changelog
 * records, commits input offsets in the same transaction (EOS v2), handles fencing and aborts,
 * and the three weaker guarantees. The framework's committer ({@code io.weir.internal.commit})
 * calls its steps in DESIGN.md's order; this package knows nothing of tasks.
 */
package io.weir.sink.internal;
