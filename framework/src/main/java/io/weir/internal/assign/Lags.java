package io.weir.internal.assign;

import io.weir.processor.TaskId;
import java.util.HashMap;
import java.util.Map;

/**
 * How far each instance is behind on each task's changelogs: the records it would restore before
 * the task could run there.
 */
final class Lags {

    private final Map<String, Map<TaskId, Long>> offsetSums = new HashMap<>();
    private final Map<TaskId, Long> ends;
    private final long acceptable;

    Lags(PlacementInput in) {
        in.instances().forEach(i -> offsetSums.put(i.id(), i.offsetSums()));
        this.ends = in.changelogEnds();
        this.acceptable = in.settings().acceptableRecoveryLag();
    }

    /** A task with logged stores; the others have nothing to restore anywhere. */
    boolean stateful(TaskId task) {
        return ends.containsKey(task);
    }

    /**
     * Records the instance lacks: none where the task runs now or for a stateless task; the whole
     * changelog where the instance reports nothing or a sum that cannot belong to this changelog.
     */
    long lag(String instance, TaskId task) {
        Long end = ends.get(task);
        if (end == null) {
            return 0;
        }
        Long sum = offsetSums.getOrDefault(instance, Map.of()).get(task);
        if (sum != null && sum == MemberHooks.RUNNING) {
            return 0;
        }
        // A sum past the end cannot come from this changelog (sums are reported before the ends
        // are read, and offsets only grow): it was deleted and recreated, so the state on disk is
        // of no use and the instance would restore everything, as with no state.
        if (sum == null || sum < 0 || sum > end) {
            return end;
        }
        return end - sum;
    }

    /** Close enough to the end to take the task over without a long restore. */
    boolean caughtUp(String instance, TaskId task) {
        return lag(instance, task) <= acceptable;
    }
}
