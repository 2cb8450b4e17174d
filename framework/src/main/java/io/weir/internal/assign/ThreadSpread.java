package io.weir.internal.assign;

import io.weir.internal.assign.PlacementInput.Instance;
import io.weir.internal.assign.PlacementInput.Member;
import io.weir.processor.TaskId;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SortedMap;
import java.util.SortedSet;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * Spreads one instance's tasks over its members (its stream threads). Active tasks: each member
 * keeps those it runs up to its share ({@code floor} or {@code ceil} of tasks / members); the rest
 * go to the least-loaded members. Standbys go to the least-loaded member counting actives and
 * standbys, except that a task the instance ran as active stays on that member: its stores are
 * open there, and another thread could not open them before this one lets go.
 */
final class ThreadSpread {

    private ThreadSpread() {}

    /** Per member of the instance: its target active tasks, standbys and warm-ups. */
    static SortedMap<String, Placement.Tasks> spread(
            Instance instance, SortedSet<TaskId> actives, SortedSet<TaskId> standbys, Set<TaskId> warmups) {
        List<String> members = instance.members().stream().map(Member::id).toList();
        Map<TaskId, String> owner = new HashMap<>();
        for (Member m : instance.members()) {
            m.owned().forEach(t -> owner.putIfAbsent(t, m.id()));
        }
        Map<String, List<TaskId>> active = balance(members, actives, owner);
        Map<String, SortedSet<TaskId>> standby = new HashMap<>();
        members.forEach(m -> standby.put(m, new TreeSet<>()));
        Comparator<String> leastLoaded = Comparator.comparingInt(
                        (String m) -> active.get(m).size() + standby.get(m).size())
                .thenComparingInt(members::indexOf);
        for (TaskId t : standbys) {
            String m = owner.containsKey(t)
                    ? owner.get(t)
                    : members.stream().min(leastLoaded).orElseThrow();
            standby.get(m).add(t);
        }
        SortedMap<String, Placement.Tasks> result = new TreeMap<>();
        for (String m : members) {
            SortedSet<TaskId> warm = new TreeSet<>(standby.get(m));
            warm.retainAll(warmups);
            result.put(m, new Placement.Tasks(new TreeSet<>(active.get(m)), standby.get(m), warm));
        }
        return result;
    }

    /** Target member of every task: sticky up to each member's share, then least-loaded first. */
    static Map<String, List<TaskId>> balance(
            List<String> members, SortedSet<TaskId> tasks, Map<TaskId, String> previousOwner) {
        Map<String, List<TaskId>> target = new HashMap<>();
        members.forEach(m -> target.put(m, new ArrayList<>()));
        int floor = tasks.size() / members.size();
        int extra = tasks.size() % members.size();
        List<TaskId> unassigned = new ArrayList<>();
        int membersAtCeiling = 0;
        for (TaskId task : tasks) {
            List<TaskId> owned = target.get(previousOwner.get(task));
            if (owned != null && owned.size() < floor) {
                owned.add(task);
            } else if (owned != null && owned.size() == floor && membersAtCeiling < extra) {
                owned.add(task);
                membersAtCeiling++;
            } else {
                unassigned.add(task);
            }
        }
        for (TaskId task : unassigned) {
            String least = members.get(0);
            for (String m : members) {
                if (target.get(m).size() < target.get(least).size()) {
                    least = m;
                }
            }
            target.get(least).add(task);
        }
        return target;
    }
}
