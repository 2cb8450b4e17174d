package io.weir.internal.bounded;

import io.weir.internal.task.ActiveTask;
import io.weir.internal.thread.RunEnd;
import io.weir.internal.thread.ThreadTasks;
import io.weir.processor.TaskId;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.consumer.Consumer;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.TopicPartition;

/**
 * One stream thread's part of a {@link BoundedRun}: the end condition of each of its tasks and
 * their finish.
 *
 * <p>A task has reached its end when, for every input partition, the partition's end offset is
 * known ({@link BoundedRun#endOffset}: taken at start for user inputs, once every writer is done
 * for repartition topics), the consumer's position is at or past it, and the task holds no
 * buffered record. The position, not the last processed offset, is compared: read_committed
 * skips transaction markers and aborted records, so the last record before the end may sit
 * several offsets below it. Records fetched at or past the end are dropped here before a task sees
 * them, so they are neither processed nor committed.
 *
 * <p>A task at its end is finished (its event time jumps to the run's end, so its windows and
 * timers fire), that is committed, and then it is done for the whole instance.
 *
 * <p>Threading: owned by one stream thread.
 */
public final class BoundedRunEnd implements RunEnd {

    private final BoundedRun run;
    private final Consumer<byte[], byte[]> consumer;
    /** Records sent by each task's finish, counted once the finish is committed. */
    private final Map<TaskId, Long> sentAtEnd = new HashMap<>();

    public BoundedRunEnd(BoundedRun run, Consumer<byte[], byte[]> consumer) {
        this.run = run;
        this.consumer = consumer;
    }

    @Override
    public List<ConsumerRecord<byte[], byte[]>> admit(TopicPartition tp, List<ConsumerRecord<byte[], byte[]>> records) {
        Long end = run.knownEnd(tp);
        return end == null ? records : BoundedRun.before(records, end);
    }

    @Override
    public boolean finishReached(ThreadTasks group) {
        boolean any = false;
        for (ActiveTask task : List.copyOf(group.tasks())) {
            if (task.finishing() || task.finished() || task.isRestoring() || run.isDone(task.id()) || !atEnd(task)) {
                continue;
            }
            sentAtEnd.put(task.id(), group.finish(task, run.endWatermark()));
            any = true;
        }
        return any;
    }

    private boolean atEnd(ActiveTask task) {
        if (task.hasBuffered() || task.inFlight() > 0) {
            return false; // calls in flight: their results are part of the run
        }
        for (TopicPartition tp : task.partitions()) {
            Long end = run.endOffset(tp);
            if (end == null || consumer.position(tp) < end) {
                return false;
            }
        }
        return true;
    }

    @Override
    public void settled(ActiveTask task) {
        task.drainCommittedCounts(run::counted);
        if (task.finished() && !run.isDone(task.id())) {
            Long sent = sentAtEnd.remove(task.id());
            run.done(task.id(), sent == null ? 0 : sent);
        }
    }

    @Override
    public boolean complete() {
        return run.isComplete();
    }
}
