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
 *
 * <p>Two passes, as Kafka Streams' assignor does: the stateful tasks first, with shares of their
 * own, then the stateless ones into what is left of the shares of all tasks. Balancing only the
 * total let an instance that came back after a crash take every stateless task while the survivor
 * kept every stateful one: equal counts, but all the state, its restores and its disk on one side.
 */
final class ActivePlacement {

    /** Active tasks per instance, and the warm-ups (task to instance) that prepare the next moves. */
    record Result(SortedMap<String, SortedSet<TaskId>> actives, SortedMap<TaskId, String> warmups) {}

    private final List<Instance> instances;
    private final Lags lags;
    private final int maxWarmups;
    private final Map<String, Integer> threads = new HashMap<>();
    /** The instance running each task now. */
    private final SortedMap<TaskId, String> previous = new TreeMap<>();

    private final Map<String, Integer> ownedCount = new HashMap<>();
    /** The shares this pass keeps to: its own tasks' and, in the stateful pass, all tasks'. */
    private final List<Shares> shares;

    private final SortedMap<String, SortedSet<TaskId>> assigned = new TreeMap<>();
    private final Set<TaskId> placed = new TreeSet<>();
    /** Room kept on an instance for each task warming up there: the task moves into it later. */
    private final Map<String, Integer> reserved = new HashMap<>();

    private final SortedMap<TaskId, String> warmups = new TreeMap<>();

    /**
     * Each instance's floor of {@code count} tasks, in proportion to its threads, and how many
     * tasks are left over for instances to run one more.
     */
    private record Shares(Map<String, Integer> floors, int extras) {
        static Shares of(List<Instance> instances, int count) {
            long totalThreads = instances.stream().mapToLong(Instance::threads).sum();
            Map<String, Integer> floors = new HashMap<>();
            int left = count;
            for (Instance i : instances) {
                int floor = (int) ((long) count * i.threads() / totalThreads);
                floors.put(i.id(), floor);
                left -= floor;
            }
            return new Shares(floors, left);
        }

        int floor(String instance) {
            return floors.get(instance);
        }
    }

    /**
     * @param tasks  the tasks this pass places
     * @param shares the shares to keep to, this pass's first
     * @param before the earlier pass, whose tasks, warm-ups and reserved room count as load here
     */
    private ActivePlacement(
            PlacementInput in, Lags lags, Set<TaskId> tasks, List<Shares> shares, ActivePlacement before) {
        this.instances = in.instances();
        this.lags = lags;
        this.maxWarmups = in.settings().maxWarmupReplicas();
        this.shares = shares;
        for (Instance i : instances) {
            threads.put(i.id(), i.threads());
            assigned.put(i.id(), new TreeSet<>(before == null ? Set.of() : before.assigned.get(i.id())));
            for (Member m : i.members()) {
                for (TaskId t : m.owned()) {
                    // A task two instances claim (one member is stale) counts for the first by id.
                    if (tasks.contains(t) && previous.putIfAbsent(t, i.id()) == null) {
                        ownedCount.merge(i.id(), 1, Integer::sum);
                    }
                }
            }
        }
        if (before != null) {
            placed.addAll(before.placed);
            reserved.putAll(before.reserved);
            warmups.putAll(before.warmups);
        }
    }

    static Result place(PlacementInput in, Lags lags) {
        Set<TaskId> stateful = new TreeSet<>();
        Set<TaskId> stateless = new TreeSet<>();
        in.tasks().forEach(t -> (lags.stateful(t) ? stateful : stateless).add(t));
        Shares all = Shares.of(in.instances(), in.tasks().size());
        // The stateful pass keeps to the shares of all tasks too: its extras must not go to more
        // instances than all tasks have extras for, or the stateless ones could not even it out.
        ActivePlacement first = new ActivePlacement(
                        in, lags, stateful, List.of(Shares.of(in.instances(), stateful.size()), all), null)
                .run(stateful);
        ActivePlacement second = new ActivePlacement(in, lags, stateless, List.of(all), first).run(stateless);
        return new Result(second.assigned, second.warmups);
    }

    private ActivePlacement run(Set<TaskId> tasks) {
        keepOwned();
        List<TaskId> stuck = new ArrayList<>();
        List<TaskId> nowhereCaughtUp = new ArrayList<>();
        placeOnCaughtUp(tasks, stuck, nowhereCaughtUp);
        keepOnCaughtUpAndWarmUp(stuck);
        placeForRestore(nowhereCaughtUp);
        return this;
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
            // What an earlier pass placed here already takes part of the share.
            int keep = room(i.id());
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
            if (!j.id().equals(owner)
                    && lags.caughtUp(j.id(), task)
                    && ownedCount.getOrDefault(j.id(), 0) < shares.get(0).floor(j.id())) {
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
                caughtUp.put(
                        t,
                        instances.stream()
                                .map(Instance::id)
                                .filter(i -> lags.caughtUp(i, t))
                                .toList());
            }
        }
        List<TaskId> rest = new ArrayList<>(caughtUp.keySet());
        rest.sort(
                Comparator.comparingInt((TaskId t) -> caughtUp.get(t).size()).thenComparing(Comparator.naturalOrder()));
        for (TaskId t : rest) {
            List<String> withRoom =
                    caughtUp.get(t).stream().filter(this::hasRoom).toList();
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
            String home = best(
                    instances.stream()
                            .map(Instance::id)
                            .filter(i -> lags.caughtUp(i, t))
                            .toList(),
                    t);
            assign(t, home);
            // A stateless task has nothing to warm up: it simply stays until there is room.
            if (!lags.stateful(t) || warmups.size() >= maxWarmups) {
                continue;
            }
            List<String> withRoom = instances.stream()
                    .map(Instance::id)
                    .filter(i -> !i.equals(home) && hasRoom(i))
                    .toList();
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
            List<String> withRoom =
                    instances.stream().map(Instance::id).filter(this::hasRoom).toList();
            // Warm-ups reserve room, so every instance may be full: then any instance will do.
            assign(
                    t,
                    best(
                            withRoom.isEmpty()
                                    ? instances.stream().map(Instance::id).toList()
                                    : withRoom,
                            t));
        }
    }

    /**
     * Below its floor, or at it while fewer than {@code extras} instances are above theirs, in
     * every share. Which instances take the extras is decided as tasks are placed, not up front,
     * so an extra goes where a task's state is instead of forcing a move (and a warm-up) by
     * instance id.
     */
    private boolean hasRoom(String instance) {
        return room(instance) > 0;
    }

    /** How many more tasks the instance may take in every share (what it already runs counts). */
    private int room(String instance) {
        int load = load(instance);
        int room = Integer.MAX_VALUE;
        for (Shares share : shares) {
            int floor = share.floor(instance);
            int usedExtras = (int) instances.stream()
                    .filter(i -> load(i.id()) > share.floor(i.id()))
                    .count();
            int most = floor + (load > floor || usedExtras < share.extras() ? 1 : 0);
            room = Math.min(room, most - load);
        }
        return Math.max(0, room);
    }

    private int load(String instance) {
        return assigned.get(instance).size() + reserved.getOrDefault(instance, 0);
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
