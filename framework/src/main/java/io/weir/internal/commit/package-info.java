/**
 * The commit: the thread's {@link io.weir.internal.commit.OpenTransaction} that its tasks write
 * their outputs, changelog records, watermark markers and next input offsets into, and the
 * {@link io.weir.internal.commit.Committer} that commits all of a thread's tasks in DESIGN.md's
 * five steps, in one direction (committer to tasks to the open transaction; committer to the
 * sink), or aborts them and rewinds. The producer, the transaction's calls to Kafka and fencing
 * are the transactional-sink module's ({@code io.weir.sink.internal}).
 */
package io.weir.internal.commit;
