/**
 * The framework's side of the commit (DESIGN.md's five steps). The protocol itself is
 * {@code io.weir.sink.internal.TransactionalSink} over {@code CommitUnit}s in the
 * {@code transactional-sink} module; today a thread's tasks are committed together by
 * {@code io.weir.internal.thread.ThreadTasks.commitAll} and each task is a {@code CommitUnit}
 * ({@code io.weir.internal.task.ActiveTask}). This room receives them when the commit path is
 * rewritten; until then it holds no class.
 */
package io.weir.internal.commit;
