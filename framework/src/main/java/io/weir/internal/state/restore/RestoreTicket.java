package io.weir.internal.state.restore;

import io.weir.processor.TaskId;
import java.util.Set;
import org.apache.kafka.common.TopicPartition;

/**
 * What a stream thread needs to know about a restore it handed to the {@code StateThread}: whether
 * every store of the task is restored, or what failed the restore.
 *
 * <p>Threads: the state thread settles a ticket ({@link #restored}, {@link #failed}); the stream
 * thread that handed the restore over polls {@link #done}.
 */
public final class RestoreTicket {

    final TaskId task;
    final Set<TopicPartition> changelogs;
    private volatile boolean done;
    private volatile RuntimeException failure;

    public RestoreTicket(TaskId task, Set<TopicPartition> changelogs) {
        this.task = task;
        this.changelogs = Set.copyOf(changelogs);
    }

    /** True once every store is restored; throws if the restore failed. */
    public boolean done() {
        RuntimeException f = failure;
        if (f != null) {
            throw f;
        }
        return done;
    }

    void restored() {
        done = true;
    }

    void failed(RuntimeException e) {
        failure = e;
    }
}
