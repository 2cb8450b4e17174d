package io.weir.internal.runtime;

import io.weir.WeirConfig;
import io.weir.internal.assign.MemberHooks;
import io.weir.processor.TaskId;
import java.util.Map;
import java.util.Set;
import org.apache.kafka.common.TopicPartition;

/** A stream thread as the assignor sees it: its instance, its local state, its standbys. */
final class ThreadMember implements MemberHooks {

    private final ThreadContext ctx;
    private final int index;
    private final AssignmentSettings settings;

    ThreadMember(ThreadContext ctx, int index) {
        this.ctx = ctx;
        this.index = index;
        WeirConfig config = ctx.config();
        this.settings = new AssignmentSettings(config.numStandbyReplicas(), config.maxWarmupReplicas(),
                config.acceptableRecoveryLag());
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
    public AssignmentSettings settings() {
        return settings;
    }

    @Override
    public Map<TaskId, Long> taskOffsetSums() {
        return ctx.instanceTasks().offsetSums();
    }

    @Override
    public void onAssignment(MemberAssignment assignment) {
        ctx.instanceTasks().updater().assign(index, assignment);
    }

    @Override
    public Map<TopicPartition, Long> endOffsets(Set<TopicPartition> changelogs) {
        return ctx.instanceTasks().endOffsets(changelogs);
    }
}
