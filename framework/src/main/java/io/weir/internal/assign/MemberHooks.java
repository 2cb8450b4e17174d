package io.weir.internal.assign;

import io.weir.processor.TaskId;
import java.util.Map;
import java.util.Set;
import org.apache.kafka.common.TopicPartition;

/**
 * What the runtime of one group member (one stream thread) tells the task assignor, and what it
 * hears back. The consumer creates the assignor itself, so the hooks reach it through the
 * consumer's configuration (key {@link #CONFIG}).
 *
 * <p>Threads: {@link #taskOffsetSums} and {@link #onAssignment} are called on the member's stream
 * thread, inside {@code poll}; {@link #endOffsets} on the group leader's stream thread while it
 * assigns.
 */
public interface MemberHooks {

    /** The consumer configuration key whose value is this member's hooks. */
    String CONFIG = "weir.internal.member.hooks";

    /** Marks a task active on this instance now: caught up whatever its changelog's end. */
    long RUNNING = -2L;

    /**
     * The member is about to (re)join the group: called first when the consumer prepares its
     * JoinGroup request, while the member's current generation is still valid.
     */
    default void onJoinPrepare() {}

    /** The stable id of the member's instance (shared by its threads). */
    String instanceId();

    /** The member's stream thread index within its instance. */
    int threadIndex();

    /** The instance's advertised HTTP base URL ({@code http.advertised.url}); empty if it has none. */
    default String endpoint() {
        return "";
    }

    /** The assignment settings of the application. */
    AssignmentSettings settings();

    /**
     * For each task whose stores this instance holds (active, standby, or left on disk), the sum
     * of its logged stores' changelog offsets, or {@link #RUNNING} for a task active on this
     * instance. The same for every thread of an instance.
     */
    Map<TaskId, Long> taskOffsetSums();

    /**
     * This member's standby and warm-up tasks, and where every task of the group runs; its active
     * tasks arrive as partitions.
     */
    void onAssignment(MemberAssignment assignment);

    /** The end offsets (read_committed) of changelog partitions; called on the leader only. */
    Map<TopicPartition, Long> endOffsets(Set<TopicPartition> changelogs);

    /**
     * Standby and warm-up tasks of one member.
     *
     * @param standbys standby tasks to keep warm, warm-ups included
     * @param warmups  the standbys that are warm-ups: once caught up, the member asks for a
     *                 rebalance that makes them active here
     * @param owners   where every task of the group runs, as the leader placed them
     */
    record MemberAssignment(Set<TaskId> standbys, Set<TaskId> warmups, TaskOwners owners) {
        public static final MemberAssignment NONE = new MemberAssignment(Set.of(), Set.of());

        public MemberAssignment {
            standbys = Set.copyOf(standbys);
            warmups = Set.copyOf(warmups);
            owners = java.util.Objects.requireNonNull(owners, "owners");
        }

        public MemberAssignment(Set<TaskId> standbys, Set<TaskId> warmups) {
            this(standbys, warmups, TaskOwners.NONE);
        }
    }

    /**
     * @param numStandbyReplicas    standby copies per stateful task, each on an instance other than its active's
     * @param maxWarmupReplicas     warm-ups in the whole group at once
     * @param acceptableRecoveryLag changelog records an instance may lack and still be caught up
     */
    record AssignmentSettings(int numStandbyReplicas, int maxWarmupReplicas, long acceptableRecoveryLag) {}
}
