package io.weir.internal.assign;

import io.weir.internal.assign.PlacementInput.Instance;
import io.weir.internal.assign.PlacementInput.Member;
import io.weir.processor.TaskId;
import java.util.HashMap;
import java.util.Map;
import java.util.Set;
import java.util.SortedMap;
import java.util.SortedSet;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * Decides which member runs each task, and where standbys and warm-ups go, from the group's
 * instances, the state each holds and the changelogs' ends. Pure and deterministic: the same input
 * (in any order) gives the same placement.
 *
 * <p>Guarantees:
 * <ul>
 *   <li>every task is active on exactly one instance; instances get active tasks in proportion to
 *       their threads (a difference of about one task per thread), and each instance's threads
 *       within one task of each other;</li>
 *   <li>an instance keeps the tasks it runs as long as balance allows; a task goes to an instance
 *       that holds its state rather than to one that would restore it;</li>
 *   <li>a task never moves to an instance more than {@code acceptable.recovery.lag} behind while a
 *       caught-up instance exists: balance then waits for a warm-up (at most
 *       {@code max.warmup.replicas} in the group) to catch up;</li>
 *   <li>standbys: up to {@code num.standby.replicas} per stateful task, on distinct instances, never
 *       on its active instance; stateless tasks have none;</li>
 *   <li>cooperative: a task that changes member is given to no one in this rebalance; its owner
 *       revokes it, and the rebalance that revocation causes hands it over. No task is ever given
 *       to a member while another still owns it. Until then, a stateful task moving to another
 *       instance is a standby on its new member.</li>
 * </ul>
 */
public final class TaskPlacement {

    private TaskPlacement() {}

    public static Placement place(PlacementInput in) {
        Lags lags = new Lags(in);
        ActivePlacement.Result actives = ActivePlacement.place(in, lags);
        Map<TaskId, String> activeInstance = new HashMap<>();
        actives.actives().forEach((instance, tasks) -> tasks.forEach(t -> activeInstance.put(t, instance)));
        SortedMap<String, SortedSet<TaskId>> standbys =
                StandbyPlacement.place(in, lags, activeInstance, actives.warmups());

        SortedMap<String, Placement.Tasks> instances = new TreeMap<>();
        SortedMap<String, Placement.Tasks> targets = new TreeMap<>();
        for (Instance i : in.instances()) {
            SortedSet<TaskId> warm = new TreeSet<>(actives.warmups().keySet());
            warm.removeIf(t -> !actives.warmups().get(t).equals(i.id()));
            instances.put(i.id(), new Placement.Tasks(actives.actives().get(i.id()), standbys.get(i.id()), warm));
            targets.putAll(ThreadSpread.spread(i, actives.actives().get(i.id()), standbys.get(i.id()), warm));
        }

        SortedMap<String, Placement.Tasks> members = new TreeMap<>();
        SortedMap<TaskId, String> withheld = new TreeMap<>();
        Map<TaskId, Set<String>> owners = owners(in);
        Map<String, String> instanceOf = new HashMap<>();
        in.instances().forEach(i -> i.members().forEach(m -> instanceOf.put(m.id(), i.id())));
        targets.forEach((member, t) -> {
            SortedSet<TaskId> given = new TreeSet<>();
            SortedSet<TaskId> standby = new TreeSet<>(t.standby());
            for (TaskId task : t.active()) {
                Set<String> owning = owners.getOrDefault(task, Set.of());
                // Cooperative hand-over: while another member owns the task, it must revoke it
                // (committing first) before anyone else may start it.
                if (owning.stream().allMatch(member::equals)) {
                    given.add(task);
                    continue;
                }
                withheld.put(task, instanceOf.get(member));
                // Meanwhile the new member keeps (or starts) the task's state as a standby, so a
                // warm-up does not stop tailing for the hand-over round. Not for a move between
                // threads of one instance: the owning thread has the stores open until it revokes.
                if (owning.stream().noneMatch(o -> instanceOf.get(o).equals(instanceOf.get(member)))
                        && lags.stateful(task)) {
                    standby.add(task);
                }
            }
            members.put(member, new Placement.Tasks(given, standby, t.warmup()));
        });

        SortedMap<TaskId, Placement.Warmup> warmups = new TreeMap<>();
        actives.warmups().forEach((t, i) -> warmups.put(t, new Placement.Warmup(i, lags.lag(i, t))));
        return new Placement(members, instances, warmups, withheld);
    }

    /** The members that own each task now (more than one only if one of them is stale). */
    private static Map<TaskId, Set<String>> owners(PlacementInput in) {
        Map<TaskId, Set<String>> owners = new HashMap<>();
        for (Instance i : in.instances()) {
            for (Member m : i.members()) {
                m.owned()
                        .forEach(t ->
                                owners.computeIfAbsent(t, k -> new TreeSet<>()).add(m.id()));
            }
        }
        return owners;
    }
}
