package io.weir.internal.assign;

import io.weir.internal.assign.PlacementInput.Instance;
import io.weir.processor.TaskId;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.SortedMap;
import java.util.SortedSet;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * Places standby copies of stateful tasks on instances: {@code num.standby.replicas} per task, each
 * on a different instance, none on the task's active instance (a copy there would not survive the
 * instance's failure). Fewer when there are not enough instances. A warm-up counts as one of the
 * task's copies: its instance needs no second one, and a task being warmed up has a copy even with
 * {@code num.standby.replicas=0}.
 */
final class StandbyPlacement {

    private StandbyPlacement() {}

    /**
     * @param active  the active instance of every task
     * @param warmups the warm-up instance of the tasks warming up
     * @return standby tasks per instance (every instance present), warm-ups included
     */
    static SortedMap<String, SortedSet<TaskId>> place(
            PlacementInput in, Lags lags, Map<TaskId, String> active, Map<TaskId, String> warmups) {
        List<Instance> instances = in.instances();
        SortedMap<String, SortedSet<TaskId>> standbys = new TreeMap<>();
        Map<String, Integer> threads = new HashMap<>();
        instances.forEach(i -> {
            standbys.put(i.id(), new TreeSet<>());
            threads.put(i.id(), i.threads());
        });
        int replicas = in.settings().numStandbyReplicas();
        for (TaskId t : in.tasks()) {
            if (!lags.stateful(t)) {
                continue;
            }
            String home = active.get(t);
            String warm = warmups.get(t);
            int copies = 0;
            if (warm != null) {
                standbys.get(warm).add(t);
                copies++;
            }
            for (; copies < replicas; copies++) {
                // Least behind first (it holds the state already), then fewest standbys per thread.
                Optional<String> next = instances.stream()
                        .map(Instance::id)
                        .filter(i -> !i.equals(home) && !standbys.get(i).contains(t))
                        .min(Comparator.comparingLong((String i) -> lags.lag(i, t))
                                .thenComparingDouble(
                                        i -> (double) standbys.get(i).size() / threads.get(i))
                                .thenComparing(Comparator.naturalOrder()));
                if (next.isEmpty()) {
                    break;
                }
                standbys.get(next.get()).add(t);
            }
        }
        return standbys;
    }
}
