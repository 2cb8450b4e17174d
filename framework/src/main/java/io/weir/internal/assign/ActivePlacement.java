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
 * Places active tasks on instances (not yet on threads), in four steps that trade balance against
 * restoring: a task never goes to an instance that would restore more than
 * {@code acceptable.recovery.lag} while an instance that is caught up exists; where balance wants
 * such a move, a warm-up restores the task on its future instance first.
 *
 * <p>Shares: each instance gets the tasks in proportion to its threads, rounded down (its floor);
 * the tasks left over ({@code extras}, fewer than the instances) let that many instances run one
 * more. Loads per thread therefore differ by about one task at most, except while a task waits
 * over its instance's share for a warm-up.
 */
final class ActivePlacement {

    /** Active tasks per instance, and the warm-ups (task to instance) that prepare the next moves. */
    record Result(SortedMap<String, SortedSet<TaskId>> actives, SortedMap<TaskId, String> warmups) {
    }

    private final List<Instance> instances;
    private final Lags lags;
    private final int maxWarmups;
    private final Map<String, Integer> threads = new HashMap<>();
    /** The instance running each task now. */
    private final SortedMap<TaskId, String> previous = new TreeMap<>();
    private final Map<String, Integer> ownedCount = new HashMap<>();
    private final Map<String, Integer> floors = new HashMap<>();
    private final int extras;
    private final SortedMap<String, SortedSet<TaskId>> assigned = new TreeMap<>();
    private final Set<TaskId> placed = new TreeSet<>();
    /** Room kept on an instance for each task warming up there: the task moves into it later. */
    private final Map<String, Integer> reserved = new HashMap<>();
    private final SortedMap<TaskId, String> warmups = new TreeMap<>();

    private ActivePlacement(PlacementInput in, Lags lags) {
        this.instances = in.instances();
        this.lags = lags;
        this.maxWarmups = in.settings().maxWarmupReplicas();
        long totalThreads = instances.stream().mapToLong(Instance::threads).sum();
        int left = in.tasks().size();
        for (Instance i : instances) {
            threads.put(i.id(), i.threads());
            assigned.put(i.id(), new TreeSet<>());
            int floor = (int) ((long) in.tasks().size() * i.threads() / totalThreads);
            floors.put(i.id(), floor);
            left -= floor;
            for (Member m : i.members()) {
                for (TaskId t : m.owned()) {
                    // A task two instances claim (one member is stale) counts for the first by id.
                    if (in.tasks().contains(t) && previous.putIfAbsent(t, i.id()) == null) {
                        ownedCount.merge(i.id(), 1, Integer::sum);
                    }
                }
            }
        }
        this.extras = left;
    }

    static Result place(PlacementInput in, Lags lags) {
        ActivePlacement p = new ActivePlacement(in, lags);
        p.keepOwned();
        List<TaskId> stuck = new ArrayList<>();
        List<TaskId> nowhereCaughtUp = new ArrayList<>();
        p.placeOnCaughtUp(in.tasks(), stuck, nowhereCaughtUp);
        p.keepOnCaughtUpAndWarmUp(stuck);
        p.placeForRestore(nowhereCaughtUp);
        return new Result(p.assigned, p.warmups);
    }

    /**
     * Step 1, stickiness: each instance keeps the tasks it runs, up to its share. Instances that
     * run the most go first, so they take the extras (they need not give a task away). One over
     * its share keeps first the tasks no other caught-up instance has room for, since those could
     * not move without a restore anyway.
     */
    private void keepOwned() {
        List<Instance> byOwned = new ArrayList<>(instances);
        byOwned.sort(Comparator.comparingInt((Instance i) -> -ownedCount.getOrDefault(i.id(), 0))
                .thenComparing(Instance::id));
        for (Instance i : byOwned) {
            List<TaskId> owned = new ArrayList<>();
            previous.forEach((t, owner) -> {
                if (owner.equals(i.id())) {
                    owned.add(t);
                }
            });
            int keep = floors.get(i.id()) + (extrasUsed() < extras ? 1 : 0);
            if (owned.size() > keep) {
                owned.sort(Comparator.comparing((TaskId t) -> hasCaughtUpAlternative(t, i.id()))
                        .thenComparing(Comparator.naturalOrder()));
                owned.subList(keep, owned.size()).clear();
            }
            owned.forEach(t -> assign(t, i.id()));
        }
    }

    /** Another instance is caught up on the task and runs fewer tasks than its share. */
    private boolean hasCaughtUpAlternative(TaskId task, String owner) {
        for (Instance j : instances) {
            if (!j.id().equals(owner) && lags.caughtUp(j.id(), task)
                    && ownedCount.getOrDefault(j.id(), 0) < floors.get(j.id())) {
                return true;
            }
        }
        return false;
    }

    /**
     * Step 2: the other tasks go to a caught-up instance with room, the least behind first. Tasks
     * with the fewest caught-up instances choose first, so stateless tasks (caught up everywhere)
     * fill what is left instead of taking the only room a stateful task could use.
     */
    private void placeOnCaughtUp(Set<TaskId> tasks, List<TaskId> stuck, List<TaskId> nowhereCaughtUp) {
        Map<TaskId, List<String>> caughtUp = new HashMap<>();
        for (TaskId t : tasks) {
            if (!placed.contains(t)) {
                caughtUp.put(t, instances.stream().map(Instance::id).filter(i -> lags.caughtUp(i, t)).toList());
            }
        }
        List<TaskId> rest = new ArrayList<>(caughtUp.keySet());
        rest.sort(Comparator.comparingInt((TaskId t) -> caughtUp.get(t).size()).thenComparing(Comparator.naturalOrder()));
        for (TaskId t : rest) {
            List<String> withRoom = caughtUp.get(t).stream().filter(this::hasRoom).toList();
            if (caughtUp.get(t).isEmpty()) {
                nowhereCaughtUp.add(t);
            } else if (withRoom.isEmpty()) {
                stuck.add(t);
            } else {
                assign(t, best(withRoom, t));
            }
        }
        stuck.sort(Comparator.naturalOrder());
        nowhereCaughtUp.sort(Comparator.naturalOrder());
    }

    /**
     * Step 3: a task whose caught-up instances are all full stays on the least behind of them (its
     * current owner on a tie), over its share, and, within {@code max.warmup.replicas} for the
     * group, warms up on the least-behind instance with room, where it moves once caught up.
     */
    private void keepOnCaughtUpAndWarmUp(List<TaskId> stuck) {
        for (TaskId t : stuck) {
            String home = best(instances.stream().map(Instance::id).filter(i -> lags.caughtUp(i, t)).toList(), t);
            assign(t, home);
            if (warmups.size() >= maxWarmups) {
                continue;
            }
            List<String> withRoom = instances.stream().map(Instance::id)
                    .filter(i -> !i.equals(home) && hasRoom(i)).toList();
            if (!withRoom.isEmpty()) {
                String warm = best(withRoom, t);
                warmups.put(t, warm);
                reserved.merge(warm, 1, Integer::sum);
            }
        }
    }

    /** Step 4: a task caught up nowhere restores wherever it goes: an instance with room, least behind. */
    private void placeForRestore(List<TaskId> nowhereCaughtUp) {
        for (TaskId t : nowhereCaughtUp) {
            List<String> withRoom = instances.stream().map(Instance::id).filter(this::hasRoom).toList();
            // Warm-ups reserve room, so every instance may be full: then any instance will do.
            assign(t, best(withRoom.isEmpty() ? instances.stream().map(Instance::id).toList() : withRoom, t));
        }
    }

    /**
     * Below its floor, or at it while fewer than {@code extras} instances are above theirs. Which
     * instances take the extras is decided as tasks are placed, not up front, so an extra goes
     * where a task's state is instead of forcing a move (and a warm-up) by instance id.
     */
    private boolean hasRoom(String instance) {
        int load = load(instance);
        return load < floors.get(instance) || load == floors.get(instance) && extrasUsed() < extras;
    }

    private int load(String instance) {
        return assigned.get(instance).size() + reserved.getOrDefault(instance, 0);
    }

    private int extrasUsed() {
        return (int) instances.stream().filter(i -> load(i.id()) > floors.get(i.id())).count();
    }

    private void assign(TaskId task, String instance) {
        assigned.get(instance).add(task);
        placed.add(task);
    }

    /** Least behind on the task; then its current owner; then least loaded per thread; then id. */
    private String best(List<String> candidates, TaskId task) {
        Comparator<String> order = Comparator.comparingLong((String i) -> lags.lag(i, task))
                .thenComparing(i -> !i.equals(previous.get(task)))
                .thenComparingDouble(i -> (double) assigned.get(i).size() / threads.get(i))
                .thenComparing(Comparator.naturalOrder());
        return candidates.stream().min(order).orElseThrow();
    }
}
