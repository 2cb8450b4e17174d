package io.weir.internal.state.thread;

import io.weir.internal.assign.MemberHooks;
import io.weir.internal.state.ChangelogTopicIds;
import io.weir.internal.state.Checkpoint;
import io.weir.internal.state.StoreHandOver;
import io.weir.processor.TaskId;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Collection;
import java.util.Map;
import java.util.OptionalLong;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;
import java.util.function.LongSupplier;
import java.util.stream.Stream;
import org.apache.kafka.common.TopicPartition;

/**
 * What an instance's threads share about their tasks: which tasks are active here (on any
 * thread), where every task with local state stands (the offsets the assignor places tasks by),
 * and the instance's {@link StateThread}, which restores active tasks and runs standbys.
 *
 * <p>Threads: every method may be called from any thread.
 */
public final class InstanceTaskRegistry {

    private final Path instanceDir;
    private final StateThread stateThread;
    private final Function<Set<TopicPartition>, Map<TopicPartition, Long>> endOffsets;
    private final ChangelogTopicIds topicIds;
    /** Active tasks of this instance: the sum of their stores' offsets, or RUNNING once restored. */
    private final Map<TaskId, LongSupplier> active = new ConcurrentHashMap<>();

    /**
     * @param endOffsets the read_committed end offsets of changelog partitions (the admin client's)
     * @param topicIds   the changelogs' topic ids as the instance found them at start
     */
    public InstanceTaskRegistry(
            Path instanceDir,
            StateThread stateThread,
            Function<Set<TopicPartition>, Map<TopicPartition, Long>> endOffsets,
            ChangelogTopicIds topicIds) {
        this.instanceDir = instanceDir;
        this.stateThread = stateThread;
        this.endOffsets = endOffsets;
        this.topicIds = topicIds;
    }

    /** The changelogs' topic ids, which every task's stores are opened with. */
    public ChangelogTopicIds changelogTopicIds() {
        return topicIds;
    }

    public StateThread stateThread() {
        return stateThread;
    }

    /**
     * Tasks about to open as active tasks here: a standby copy of one of them ends first and hands
     * its open stores over (returned; the caller owns them), and none is opened while the task
     * stays active here. Blocks until the copies have let go of the stores.
     */
    public StoreHandOver activating(Collection<TaskId> ids) {
        if (ids.isEmpty()) {
            return StoreHandOver.NONE;
        }
        ids.forEach(id -> active.putIfAbsent(id, () -> 0L));
        return stateThread.release(ids);
    }

    /** An active task opened here; {@code offsets} tells where it stands (RUNNING once restored). */
    public void activated(TaskId id, LongSupplier offsets) {
        active.put(id, offsets);
    }

    /** Active tasks closed here: a standby assigned for one of them may open now. */
    public void deactivated(Collection<TaskId> ids) {
        if (ids.isEmpty()) {
            return;
        }
        ids.forEach(active::remove);
        stateThread.reconcile();
    }

    boolean isActive(TaskId id) {
        return active.containsKey(id);
    }

    /**
     * For {@link MemberHooks#taskOffsetSums()}: every task active here (RUNNING once restored),
     * every standby (its stores' offsets), and every other task directory with a checkpoint of
     * the current changelogs (one of a recreated changelog is state to be wiped: none).
     */
    public Map<TaskId, Long> offsetSums() {
        Map<TaskId, Long> sums = new TreeMap<>();
        for (TaskId id : onDisk()) {
            OptionalLong sum = Checkpoint.offsetSum(instanceDir.resolve(id.toString()), topicIds);
            if (sum.isPresent()) {
                sums.put(id, sum.getAsLong());
            }
        }
        sums.putAll(stateThread.standbyOffsetSums());
        active.forEach((id, offsets) -> sums.put(id, offsets.getAsLong()));
        return sums;
    }

    public Map<TopicPartition, Long> endOffsets(Set<TopicPartition> changelogs) {
        return endOffsets.apply(changelogs);
    }

    /** The task directories under the instance directory. */
    private Set<TaskId> onDisk() {
        Set<TaskId> ids = new java.util.TreeSet<>();
        try (Stream<Path> dirs = Files.list(instanceDir)) {
            dirs.filter(Files::isDirectory).forEach(dir -> {
                try {
                    ids.add(TaskId.parse(dir.getFileName().toString()));
                } catch (IllegalArgumentException notATask) {
                    // some other directory
                }
            });
        } catch (IOException e) {
            // no directory yet, or unreadable: no local state to report
        }
        return ids;
    }
}
