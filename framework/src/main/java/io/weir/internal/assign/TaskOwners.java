package io.weir.internal.assign;

import io.weir.processor.TaskId;
import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.util.Collections;
import java.util.List;
import java.util.Optional;
import java.util.SortedMap;
import java.util.SortedSet;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * Where every task of the group runs after one rebalance, as its leader placed them: per instance
 * its advertised HTTP endpoint, its active tasks and its standbys; and per sub-topology its number
 * of tasks, so a key's task can be computed. Every member receives the same view with its
 * assignment ({@link AssignmentInfo}), which is how any instance knows which instance to ask for a
 * key.
 *
 * <p>A task that changes instance in this rebalance is active nowhere in the view: its old owner
 * is revoking it and its new owner gets it in the follow-up rebalance. A query for it meanwhile is
 * for a standby to answer, or for the caller to retry.
 *
 * @param generation the group generation of the rebalance that placed the tasks, as the member
 *                   that received the view saw it (-1 on the wire); a later generation replaces an
 *                   earlier view
 * @param instances  per instance id
 * @param tasks      per sub-topology id, its number of tasks (the partition count of its inputs)
 */
public record TaskOwners(int generation, SortedMap<String, Instance> instances, SortedMap<Integer, Integer> tasks) {

    /** No view yet (before the first assignment, or from a leader that sends none). */
    public static final TaskOwners NONE = new TaskOwners(-1, new TreeMap<>(), new TreeMap<>());

    public TaskOwners {
        instances = Collections.unmodifiableSortedMap(new TreeMap<>(instances));
        tasks = Collections.unmodifiableSortedMap(new TreeMap<>(tasks));
    }

    /**
     * One instance of the group.
     *
     * @param endpoint its advertised HTTP base URL ({@code http.advertised.url}); empty if it has none
     */
    public record Instance(String endpoint, SortedSet<TaskId> active, SortedSet<TaskId> standby) {
        public Instance {
            active = Collections.unmodifiableSortedSet(new TreeSet<>(active));
            standby = Collections.unmodifiableSortedSet(new TreeSet<>(standby));
        }
    }

    /** The instance running {@code task} as active, if any does in this view. */
    public Optional<String> activeOf(TaskId task) {
        return instances.entrySet().stream()
                .filter(e -> e.getValue().active().contains(task))
                .map(java.util.Map.Entry::getKey)
                .findFirst();
    }

    /** The instances keeping a standby of {@code task}, in id order. */
    public List<String> standbysOf(TaskId task) {
        return instances.entrySet().stream()
                .filter(e -> e.getValue().standby().contains(task))
                .map(java.util.Map.Entry::getKey)
                .toList();
    }

    /** The endpoint {@code instance} advertised; empty if it is not in the view or advertised none. */
    public String endpointOf(String instance) {
        Instance i = instances.get(instance);
        return i == null ? "" : i.endpoint();
    }

    void encode(ByteArrayOutputStream out) {
        // Not the generation: the leader does not know it; each member stamps its own (withGeneration).
        Varints.writeInt(out, tasks.size());
        tasks.forEach((subtopology, n) -> {
            Varints.writeInt(out, subtopology);
            Varints.writeInt(out, n);
        });
        Varints.writeInt(out, instances.size());
        instances.forEach((id, i) -> {
            Varints.writeString(out, id);
            Varints.writeString(out, i.endpoint());
            Varints.writeTasks(out, i.active());
            Varints.writeTasks(out, i.standby());
        });
    }

    static TaskOwners decode(ByteBuffer in) {
        SortedMap<Integer, Integer> tasks = new TreeMap<>();
        int subtopologies = Varints.readCount(in);
        for (int s = 0; s < subtopologies; s++) {
            tasks.put(Varints.readInt(in), Varints.readInt(in));
        }
        SortedMap<String, Instance> instances = new TreeMap<>();
        int n = Varints.readCount(in);
        for (int i = 0; i < n; i++) {
            String id = Varints.readString(in);
            String endpoint = Varints.readString(in);
            instances.put(
                    id,
                    new Instance(endpoint, new TreeSet<>(Varints.readTasks(in)), new TreeSet<>(Varints.readTasks(in))));
        }
        return new TaskOwners(-1, instances, tasks);
    }

    /**
     * The tasks active on no instance in this view: withheld because they change member, so their
     * owners revoke them now and the follow-up rebalance hands them over. Empty without a view.
     */
    public SortedSet<TaskId> moving() {
        SortedSet<TaskId> moving = new TreeSet<>();
        if (instances.isEmpty()) {
            return moving;
        }
        tasks.forEach((subtopology, n) -> {
            for (int p = 0; p < n; p++) {
                moving.add(new TaskId(subtopology, p));
            }
        });
        instances.values().forEach(i -> moving.removeAll(i.active()));
        return moving;
    }

    /** This view as of group generation {@code g}. */
    public TaskOwners withGeneration(int g) {
        return new TaskOwners(g, instances, tasks);
    }
}
