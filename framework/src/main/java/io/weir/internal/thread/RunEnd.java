package io.weir.internal.thread;

import io.weir.internal.task.ActiveTask;
import java.util.List;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.TopicPartition;

/**
 * Where a {@link TaskManager}'s run ends: never ({@link #STREAMING}), or, in a bounded run
 * ({@code BoundedRunEnd}), when every task has processed its inputs to their end offsets and
 * committed its finish. The manager asks it at fixed points of its one loop; the loop itself does
 * not change between the two modes.
 *
 * <p>Threading: called by the thread that owns the task manager.
 */
public interface RunEnd {

    /** A streaming run: no end, nothing dropped, nothing to finish. */
    RunEnd STREAMING = new RunEnd() {
        @Override
        public List<ConsumerRecord<byte[], byte[]>> admit(
                TopicPartition tp, List<ConsumerRecord<byte[], byte[]>> records) {
            return records;
        }

        @Override
        public boolean finishReached(ThreadTasks group) {
            return false;
        }

        @Override
        public void settled(ActiveTask task) {}

        @Override
        public boolean complete() {
            return false;
        }
    };

    /** The fetched records of {@code tp} that are inside the run (a bounded run drops those at or past its end). */
    List<ConsumerRecord<byte[], byte[]>> admit(TopicPartition tp, List<ConsumerRecord<byte[], byte[]>> records);

    /**
     * After processing: finishes the tasks whose inputs all reached their end (their windows and
     * timers fire). Returns true if it finished any, which must then be committed.
     */
    boolean finishReached(ThreadTasks group);

    /** After a commit, and before a task closes: takes what the task committed (its counts, its finish). */
    void settled(ActiveTask task);

    /** True once the whole run is done: the owner's loop ends. */
    boolean complete();
}
