package io.weir.internal.thread;

import io.weir.config.WeirConfig;
import io.weir.internal.assign.MemberHooks;
import io.weir.processor.TaskId;
import java.util.Map;
import java.util.Set;
import org.apache.kafka.common.TopicPartition;

/** A stream thread as the assignor sees it: its instance, its local state, its standbys. */
final class ThreadMember implements MemberHooks {

    /** What the stream thread hears of its group membership, inside its consumer's poll. */
    interface JoinListener {
        /** A (re)join starts; the current generation is still valid. */
        void joining();

        /**
         * The join ended with an assignment.
         *
         * @param moving the group's tasks this assignment withholds because they change member
         *               (active nowhere until the follow-up rebalance)
         */
        void joined(java.util.SortedSet<TaskId> moving);
    }

    private final ThreadContext ctx;
    private final int index;
    private final AssignmentSettings settings;
    private final JoinListener listener;

    ThreadMember(ThreadContext ctx, int index, JoinListener listener) {
        this.ctx = ctx;
        this.index = index;
        this.listener = listener;
        WeirConfig config = ctx.config();
        this.settings = new AssignmentSettings(
                config.numStandbyReplicas(), config.maxWarmupReplicas(), config.acceptableRecoveryLag());
    }

    @Override
    public void onJoinPrepare() {
        listener.joining();
    }

    @Override
    public String instanceId() {
        return ctx.instanceId();
    }

    @Override
    public int threadIndex() {
        return index;
    }

    @Override
    public String endpoint() {
        return ctx.shared().ownership().endpoint();
    }

    @Override
    public AssignmentSettings settings() {
        return settings;
    }

    @Override
    public Map<TaskId, Long> taskOffsetSums() {
        return ctx.shared().taskRegistry().offsetSums();
    }

    @Override
    public void onAssignment(MemberAssignment assignment) {
        ctx.shared().ownership().update(assignment.owners());
        var here = assignment.owners().instances().get(ctx.instanceId());
        ctx.shared().taskRegistry().stateThread().assign(index, assignment, here == null ? Set.of() : here.active());
        listener.joined(assignment.owners().moving());
    }

    @Override
    public Map<TopicPartition, Long> endOffsets(Set<TopicPartition> changelogs) {
        return ctx.shared().taskRegistry().endOffsets(changelogs);
    }
}
