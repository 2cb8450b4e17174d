package io.weir.internal.assign;

import io.weir.internal.assign.MemberHooks.AssignmentSettings;
import io.weir.internal.assign.PlacementInput.Instance;
import io.weir.internal.assign.PlacementInput.Member;
import io.weir.processor.TaskId;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * A group for placement tests, rebalance after rebalance: instances with their threads and
 * reported state, tasks with their changelog ends. {@link #rebalance} places the tasks, then makes
 * every member own what it was given, as the consumers would after the rebalance.
 */
final class PlacementScenario {

    private final Map<String, Integer> threads = new LinkedHashMap<>();
    private final Map<String, Map<TaskId, Long>> sums = new TreeMap<>();
    private final Map<String, Set<TaskId>> owned = new TreeMap<>();
    private final Set<TaskId> tasks = new TreeSet<>();
    private final Map<TaskId, Long> ends = new TreeMap<>();
    private AssignmentSettings settings = new AssignmentSettings(0, 2, 100);

    static TaskId task(int subtopology, int partition) {
        return new TaskId(subtopology, partition);
    }

    static String member(String instance, int thread) {
        return instance + "-" + thread;
    }

    PlacementScenario settings(int standbys, int warmups, long acceptableLag) {
        settings = new AssignmentSettings(standbys, warmups, acceptableLag);
        return this;
    }

    /** Tasks 0_0 .. 0_{n-1} without state. */
    PlacementScenario statelessTasks(int n) {
        for (int p = 0; p < n; p++) {
            tasks.add(task(0, p));
        }
        return this;
    }

    /** Tasks 1_0 .. 1_{n-1}, each with a changelog ending at {@code end}. */
    PlacementScenario statefulTasks(int n, long end) {
        for (int p = 0; p < n; p++) {
            tasks.add(task(1, p));
            ends.put(task(1, p), end);
        }
        return this;
    }

    PlacementScenario instance(String id, int threadCount) {
        threads.put(id, threadCount);
        sums.putIfAbsent(id, new TreeMap<>());
        for (int t = 0; t < threadCount; t++) {
            owned.putIfAbsent(member(id, t), new TreeSet<>());
        }
        return this;
    }

    PlacementScenario remove(String id) {
        threads.remove(id);
        sums.remove(id);
        owned.keySet().removeIf(m -> m.startsWith(id + "-"));
        return this;
    }

    /** The member owns the task's partitions and its instance runs it. */
    PlacementScenario owns(String instance, int thread, TaskId... ts) {
        for (TaskId t : ts) {
            owned.get(member(instance, thread)).add(t);
            sums.get(instance).put(t, MemberHooks.RUNNING);
        }
        return this;
    }

    /** The instance holds the task's state up to this offset sum. */
    PlacementScenario state(String instance, TaskId t, long sum) {
        sums.get(instance).put(t, sum);
        return this;
    }

    PlacementInput input() {
        List<Instance> instances = new ArrayList<>();
        threads.forEach((id, n) -> {
            List<Member> members = new ArrayList<>();
            for (int t = 0; t < n; t++) {
                members.add(new Member(member(id, t), t, owned.get(member(id, t))));
            }
            instances.add(new Instance(id, members, sums.get(id)));
        });
        return new PlacementInput(instances, tasks, ends, settings);
    }

    /**
     * Places the tasks; afterwards each member owns the actives it was given, its instance reports
     * them running, and tasks it stopped running stay on disk at their changelog's end.
     */
    Placement rebalance() {
        Placement p = TaskPlacement.place(input());
        p.members().forEach((m, t) -> {
            String instance = m.substring(0, m.lastIndexOf('-'));
            for (TaskId gone : owned.get(m)) {
                if (!t.active().contains(gone) && ends.containsKey(gone)) {
                    sums.get(instance).put(gone, ends.get(gone));
                }
            }
            owned.put(m, new TreeSet<>(t.active()));
            t.active().forEach(task -> sums.get(instance).put(task, MemberHooks.RUNNING));
        });
        return p;
    }

    /** Rebalances until nothing is withheld; at most {@code max} rounds. */
    Placement settle(int max) {
        Placement p = rebalance();
        for (int i = 1; i < max && !p.withheld().isEmpty(); i++) {
            p = rebalance();
        }
        return p;
    }
}
