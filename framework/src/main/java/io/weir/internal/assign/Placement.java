package io.weir.internal.assign;

import io.weir.processor.TaskId;
import java.util.Collections;
import java.util.SortedMap;
import java.util.SortedSet;
import java.util.StringJoiner;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * The outcome of {@link TaskPlacement}: what each member runs from this rebalance on, and the
 * target per instance it was derived from.
 *
 * @param members   per member id: the active tasks it gets now (withheld ones excluded), its
 *                  standbys and, among them, its warm-ups; a stateful task withheld from a member
 *                  of another instance than its owner's is a standby there meanwhile
 * @param instances per instance id: its target active tasks (withheld ones included), standbys and
 *                  warm-ups; equal targets mean an unchanged placement
 * @param warmups   per warm-up task: the instance restoring it and how far behind it is
 * @param withheld  per task that changes member: the instance it goes to once its current owner
 *                  has revoked it (the next rebalance)
 */
public record Placement(
        SortedMap<String, Tasks> members,
        SortedMap<String, Tasks> instances,
        SortedMap<TaskId, Warmup> warmups,
        SortedMap<TaskId, String> withheld) {

    public Placement {
        members = Collections.unmodifiableSortedMap(new TreeMap<>(members));
        instances = Collections.unmodifiableSortedMap(new TreeMap<>(instances));
        warmups = Collections.unmodifiableSortedMap(new TreeMap<>(warmups));
        withheld = Collections.unmodifiableSortedMap(new TreeMap<>(withheld));
    }

    /**
     * The tasks of a member or an instance.
     *
     * @param warmup the standbys that are warm-ups (a subset of {@code standby})
     */
    public record Tasks(SortedSet<TaskId> active, SortedSet<TaskId> standby, SortedSet<TaskId> warmup) {
        public static final Tasks NONE = new Tasks(new TreeSet<>(), new TreeSet<>(), new TreeSet<>());

        public Tasks {
            active = Collections.unmodifiableSortedSet(new TreeSet<>(active));
            standby = Collections.unmodifiableSortedSet(new TreeSet<>(standby));
            warmup = Collections.unmodifiableSortedSet(new TreeSet<>(warmup));
            if (!standby.containsAll(warmup)) {
                throw new IllegalArgumentException("warm-ups " + warmup + " are not all standbys " + standby);
            }
        }
    }

    /** A warm-up: the instance restoring the task, and the changelog records it lacked. */
    public record Warmup(String instance, long lag) {}

    /**
     * One line for operators: per instance its active tasks (and how many arrive in the next
     * rebalance), standbys and warm-ups (when there are any); then each warm-up with its lag. For
     * example {@code 2 instances: a 3 active, 1 standby; b 3 active (1 arriving), 2 standby,
     * 1 warm-up; warm-ups: 1_2 on b (lag 52000)}.
     */
    public String describe() {
        StringJoiner line =
                new StringJoiner("; ", instances.size() + " instance" + (instances.size() == 1 ? "" : "s") + ": ", "");
        instances.forEach((id, t) -> {
            long arriving = withheld.values().stream().filter(id::equals).count();
            StringBuilder sb =
                    new StringBuilder(id).append(' ').append(t.active().size()).append(" active");
            if (arriving > 0) {
                sb.append(" (").append(arriving).append(" arriving)");
            }
            if (t.standby().size() > t.warmup().size()) {
                sb.append(", ").append(t.standby().size() - t.warmup().size()).append(" standby");
            }
            if (!t.warmup().isEmpty()) {
                sb.append(", ").append(t.warmup().size()).append(" warm-up");
            }
            line.add(sb);
        });
        if (!warmups.isEmpty()) {
            StringJoiner w = new StringJoiner(", ", "warm-ups: ", "");
            warmups.forEach((task, wu) -> w.add(task + " on " + wu.instance() + " (lag " + wu.lag() + ")"));
            line.add(w.toString());
        }
        return line.toString();
    }
}
