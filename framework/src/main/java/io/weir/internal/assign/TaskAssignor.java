package io.weir.internal.assign;

import io.weir.internal.assign.MemberHooks.MemberAssignment;
import io.weir.internal.topology.StoreSpec;
import io.weir.internal.topology.Subtopology;
import io.weir.internal.topology.TopologyModel;
import io.weir.processor.TaskId;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SortedMap;
import java.util.SortedSet;
import java.util.TreeMap;
import java.util.TreeSet;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerGroupMetadata;
import org.apache.kafka.clients.consumer.ConsumerPartitionAssignor;
import org.apache.kafka.common.Cluster;
import org.apache.kafka.common.Configurable;
import org.apache.kafka.common.TopicPartition;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The group's partition assignor: it assigns whole tasks (partition {@code p} of every input topic
 * of a sub-topology lands on one member), sticky to the instance that holds their state, balanced
 * over instances by thread count and then over each instance's threads, with standby and warm-up
 * copies on other instances. The decisions are {@link TaskPlacement}'s; this class translates
 * between Kafka's subscriptions and assignments and that placement.
 *
 * <p>Each member (one stream thread) sends its instance id, thread index and task offset sums in
 * its subscription ({@link SubscriptionInfo}); the leader reads the changelogs' end offsets once
 * per rebalance through its {@link MemberHooks}, places the tasks, and sends each member its
 * partitions plus its standbys and warm-ups ({@link AssignmentInfo}), which reach the member's
 * runtime through {@link MemberHooks#onAssignment}.
 *
 * <p>Cooperative: a task that moves is not given to its new member in the same rebalance; its old
 * owner revokes it (committing first) and the follow-up rebalance that revocation triggers hands it
 * over, so no partition is ever processed by two members at once. A member may therefore be told
 * to keep, as a standby, a task it is revoking as active in the same rebalance.
 *
 * <p>The topology and the hooks reach the assignor through the consumer's configuration (keys
 * {@link #TOPOLOGY_CONFIG} and {@link MemberHooks#CONFIG}), since the consumer creates the assignor
 * itself; the topology must be resolved for the application, whose id is the consumer's
 * {@code group.id}.
 */
public final class TaskAssignor implements ConsumerPartitionAssignor, Configurable {

    public static final String TOPOLOGY_CONFIG = "weir.internal.topology";

    private static final Logger log = LoggerFactory.getLogger(TaskAssignor.class);

    private TopologyModel model;
    private MemberHooks hooks;
    private String applicationId;
    /** The last placement this member logged as leader, so an unchanged one is not logged again. */
    private SortedMap<String, Placement.Tasks> lastLogged;

    @Override
    public void configure(Map<String, ?> configs) {
        if (!(configs.get(TOPOLOGY_CONFIG) instanceof TopologyModel tm)) {
            throw new IllegalStateException(TOPOLOGY_CONFIG + " missing from the consumer configuration");
        }
        if (!(configs.get(MemberHooks.CONFIG) instanceof MemberHooks h)) {
            throw new IllegalStateException(MemberHooks.CONFIG + " missing from the consumer configuration: the"
                    + " assignor needs the stream thread's hooks to report state and receive standbys");
        }
        if (configs.get(ConsumerConfig.GROUP_ID_CONFIG) == null) {
            throw new IllegalStateException(
                    ConsumerConfig.GROUP_ID_CONFIG + " missing from the consumer configuration");
        }
        this.model = tm;
        this.hooks = h;
        this.applicationId = String.valueOf(configs.get(ConsumerConfig.GROUP_ID_CONFIG));
    }

    @Override
    public String name() {
        return "weir-tasks";
    }

    @Override
    public List<RebalanceProtocol> supportedProtocols() {
        return List.of(RebalanceProtocol.COOPERATIVE);
    }

    @Override
    public ByteBuffer subscriptionUserData(Set<String> topics) {
        hooks.onJoinPrepare();
        return new SubscriptionInfo(hooks.instanceId(), hooks.threadIndex(), hooks.taskOffsetSums(), hooks.endpoint())
                .encode();
    }

    @Override
    public GroupAssignment assign(Cluster metadata, GroupSubscription groupSubscription) {
        SortedMap<String, Subscription> subs = new TreeMap<>(groupSubscription.groupSubscription());
        Map<String, Integer> partitionCounts = partitionCounts(metadata, subs);
        // Checked at start-up too; here it catches input partitions added while running, which
        // would send a key's records and its state to different tasks.
        CoPartitioning.require(model, partitionCounts);
        SortedMap<TaskId, List<TopicPartition>> tasks = tasks(partitionCounts);
        List<PlacementInput.Instance> instances = instances(subs);
        PlacementInput input = new PlacementInput(
                instances, tasks.keySet(), changelogEnds(tasks.keySet(), instances), hooks.settings());
        Placement placement = TaskPlacement.place(input);
        if (!placement.instances().equals(lastLogged)) {
            log.info("task placement changed: {}", placement.describe());
            lastLogged = placement.instances();
        }
        TaskOwners owners = owners(subs, placement, tasks.keySet());
        Map<String, Assignment> result = new HashMap<>();
        placement.members().forEach((member, t) -> {
            List<TopicPartition> partitions = new ArrayList<>();
            t.active().forEach(task -> partitions.addAll(tasks.get(task)));
            result.put(
                    member,
                    new Assignment(
                            partitions, AssignmentInfo.encode(new MemberAssignment(t.standby(), t.warmup(), owners))));
        });
        return new GroupAssignment(result);
    }

    /**
     * Where each task runs from this rebalance on, per instance: the members' active tasks (a task
     * withheld while it moves is active nowhere) and standbys, with the endpoint the instance's
     * members advertised.
     */
    private static TaskOwners owners(Map<String, Subscription> subs, Placement placement, Set<TaskId> tasks) {
        Map<String, String> instanceOfMember = new HashMap<>();
        Map<String, String> endpoints = new TreeMap<>();
        subs.forEach((memberId, sub) -> {
            SubscriptionInfo info =
                    SubscriptionInfo.decode(sub.userData()).orElse(new SubscriptionInfo(memberId, 0, Map.of()));
            instanceOfMember.put(memberId, info.instanceId());
            endpoints.merge(info.instanceId(), info.endpoint(), (a, b) -> a.isEmpty() ? b : a);
        });
        Map<String, SortedSet<TaskId>> active = new TreeMap<>();
        Map<String, SortedSet<TaskId>> standby = new TreeMap<>();
        placement.members().forEach((member, t) -> {
            String instance = instanceOfMember.getOrDefault(member, member);
            active.computeIfAbsent(instance, k -> new TreeSet<>()).addAll(t.active());
            standby.computeIfAbsent(instance, k -> new TreeSet<>()).addAll(t.standby());
        });
        SortedMap<String, TaskOwners.Instance> instances = new TreeMap<>();
        endpoints.forEach((id, endpoint) -> instances.put(
                id,
                new TaskOwners.Instance(
                        endpoint,
                        active.getOrDefault(id, new TreeSet<>()),
                        standby.getOrDefault(id, new TreeSet<>()))));
        SortedMap<Integer, Integer> counts = new TreeMap<>();
        tasks.forEach(t -> counts.merge(t.subtopology(), t.partition() + 1, Math::max));
        return new TaskOwners(-1, instances, counts);
    }

    @Override
    public void onAssignment(Assignment assignment, ConsumerGroupMetadata metadata) {
        MemberAssignment mine;
        try {
            mine = AssignmentInfo.decode(assignment.userData());
        } catch (IllegalArgumentException e) {
            // Standbys are an optimisation: run the active tasks without them rather than fail.
            log.warn("cannot read the standby tasks in this assignment, running none: {}", e.getMessage());
            mine = MemberAssignment.NONE;
        }
        hooks.onAssignment(new MemberAssignment(
                mine.standbys(),
                mine.warmups(),
                mine.owners().withGeneration(metadata == null ? -1 : metadata.generationId())));
    }

    private static Map<String, Integer> partitionCounts(Cluster metadata, Map<String, Subscription> subs) {
        Map<String, Integer> counts = new TreeMap<>();
        subs.values()
                .forEach(s -> s.topics().forEach(topic -> {
                    Integer count = metadata.partitionCountForTopic(topic);
                    if (count != null) {
                        counts.put(topic, count);
                    }
                }));
        return counts;
    }

    /** Every task with its input partitions: partition p of each input of sub-topology s is task s_p. */
    private SortedMap<TaskId, List<TopicPartition>> tasks(Map<String, Integer> partitionCounts) {
        SortedMap<TaskId, List<TopicPartition>> tasks = new TreeMap<>();
        partitionCounts.forEach((topic, count) -> {
            Subtopology st = model.subtopologyFor(topic);
            for (int p = 0; st != null && p < count; p++) {
                tasks.computeIfAbsent(new TaskId(st.id(), p), k -> new ArrayList<>())
                        .add(new TopicPartition(topic, p));
            }
        });
        return tasks;
    }

    /**
     * The members grouped by instance. A member whose subscription this code cannot read (an
     * older version) counts as an instance of its own with one thread and no state.
     */
    private List<PlacementInput.Instance> instances(Map<String, Subscription> subs) {
        Map<String, List<PlacementInput.Member>> members = new TreeMap<>();
        Map<String, Map<TaskId, Long>> sums = new TreeMap<>();
        subs.forEach((memberId, sub) -> {
            SubscriptionInfo info =
                    SubscriptionInfo.decode(sub.userData()).orElse(new SubscriptionInfo(memberId, 0, Map.of()));
            members.computeIfAbsent(info.instanceId(), k -> new ArrayList<>())
                    .add(new PlacementInput.Member(memberId, info.threadIndex(), ownedTasks(sub)));
            // Threads report the same instance-wide sums, read at slightly different times.
            Map<TaskId, Long> instanceSums = sums.computeIfAbsent(info.instanceId(), k -> new TreeMap<>());
            info.offsetSums()
                    .forEach((t, s) -> instanceSums.merge(
                            t,
                            s,
                            (a, b) -> a == MemberHooks.RUNNING || b == MemberHooks.RUNNING
                                    ? MemberHooks.RUNNING
                                    : Math.max(a, b)));
        });
        List<PlacementInput.Instance> instances = new ArrayList<>();
        members.forEach((id, ms) -> instances.add(new PlacementInput.Instance(id, ms, sums.get(id))));
        return instances;
    }

    private Set<TaskId> ownedTasks(Subscription sub) {
        Set<TaskId> owned = new TreeSet<>();
        for (TopicPartition tp : sub.ownedPartitions()) {
            Subtopology st = model.subtopologyFor(tp.topic());
            if (st != null) {
                owned.add(new TaskId(st.id(), tp.partition()));
            }
        }
        return owned;
    }

    /**
     * The sum of the changelog end offsets of every task with logged stores, read once. If they
     * cannot be read, the most advanced sum any instance reports stands in for the end: the
     * instances holding the most recent state then count as caught up, which keeps tasks where
     * their state is.
     */
    private Map<TaskId, Long> changelogEnds(Set<TaskId> tasks, List<PlacementInput.Instance> instances) {
        Map<TaskId, List<TopicPartition>> changelogs = new TreeMap<>();
        for (TaskId t : tasks) {
            for (StoreSpec store : model.storesOf(model.subtopologies().get(t.subtopology()))) {
                // A table's store restored from its source topic is left out, as from the offset
                // sums (TaskStores.changelogOffsetSum) and the standbys: its end is not what a
                // caught-up copy holds (that is the committed input offset).
                if (store.logged() && !store.changelogIsSource()) {
                    changelogs
                            .computeIfAbsent(t, k -> new ArrayList<>())
                            .add(new TopicPartition(store.changelogTopic(applicationId), t.partition()));
                }
            }
        }
        Map<TaskId, Long> ends = new TreeMap<>();
        if (changelogs.isEmpty()) {
            return ends;
        }
        Set<TopicPartition> all = new HashSet<>();
        changelogs.values().forEach(all::addAll);
        try {
            Map<TopicPartition, Long> offsets = hooks.endOffsets(Set.copyOf(all));
            changelogs.forEach((t, tps) -> ends.put(
                    t,
                    tps.stream().mapToLong(tp -> offsets.getOrDefault(tp, 0L)).sum()));
        } catch (RuntimeException e) {
            log.warn(
                    "cannot read the changelogs' end offsets ({}); placing tasks by the state instances report",
                    e.toString());
            changelogs
                    .keySet()
                    .forEach(t -> ends.put(
                            t,
                            instances.stream()
                                    .mapToLong(i -> Math.max(0, i.offsetSums().getOrDefault(t, 0L)))
                                    .max()
                                    .orElse(0L)));
        }
        return ends;
    }
}
