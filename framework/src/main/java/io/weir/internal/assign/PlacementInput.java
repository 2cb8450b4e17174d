package io.weir.internal.assign;

import io.weir.internal.assign.MemberHooks.AssignmentSettings;
import io.weir.processor.TaskId;
import java.util.Collections;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * Everything {@link TaskPlacement} decides from, as plain values: no Kafka types. The constructors
 * sort every collection (instances by id, members by thread index then id, tasks by id), so the
 * order a caller lists them in cannot change the placement.
 *
 * @param instances     the live instances, each with at least one member
 * @param tasks         every task of the group
 * @param changelogEnds per stateful task (one with logged stores), the sum of its changelog
 *                      partitions' end offsets; a task missing here is stateless
 * @param settings      standby, warm-up and recovery-lag settings
 */
public record PlacementInput(
        List<Instance> instances, Set<TaskId> tasks, Map<TaskId, Long> changelogEnds, AssignmentSettings settings) {

    public PlacementInput {
        instances =
                instances.stream().sorted(Comparator.comparing(Instance::id)).toList();
        if (instances.stream().map(Instance::id).distinct().count() != instances.size()) {
            throw new IllegalArgumentException("instance ids repeat: "
                    + instances.stream().map(Instance::id).toList());
        }
        tasks = Collections.unmodifiableSortedSet(new TreeSet<>(tasks));
        changelogEnds = Collections.unmodifiableSortedMap(new TreeMap<>(changelogEnds));
        Objects.requireNonNull(settings, "settings");
    }

    /**
     * One application instance: the group members that are its stream threads, and the state it
     * holds.
     *
     * @param offsetSums per task whose state the instance holds, the sum of its changelog offsets
     *                   there, or {@link MemberHooks#RUNNING} for a task active there now
     */
    public record Instance(String id, List<Member> members, Map<TaskId, Long> offsetSums) {
        public Instance {
            Objects.requireNonNull(id, "id");
            if (members.isEmpty()) {
                throw new IllegalArgumentException("instance " + id + " has no members");
            }
            members = members.stream()
                    .sorted(Comparator.comparingInt(Member::threadIndex).thenComparing(Member::id))
                    .toList();
            offsetSums = Collections.unmodifiableSortedMap(new TreeMap<>(offsetSums));
        }

        int threads() {
            return members.size();
        }
    }

    /**
     * One group member (one stream thread).
     *
     * @param owned the tasks whose partitions the member owns now (from its subscription)
     */
    public record Member(String id, int threadIndex, Set<TaskId> owned) {
        public Member {
            Objects.requireNonNull(id, "id");
            owned = Collections.unmodifiableSortedSet(new TreeSet<>(owned));
        }
    }
}
