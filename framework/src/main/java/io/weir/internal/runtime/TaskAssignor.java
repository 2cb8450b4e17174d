package io.weir.internal.runtime;

import io.weir.internal.topology.Subtopology;
import io.weir.internal.topology.TopologyModel;
import io.weir.processor.TaskId;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.apache.kafka.clients.consumer.ConsumerPartitionAssignor;
import org.apache.kafka.common.Cluster;
import org.apache.kafka.common.Configurable;
import org.apache.kafka.common.TopicPartition;

/**
 * Assigns whole tasks to group members (one member per stream thread), so that partition
 * {@code p} of every input topic of a sub-topology lands on the same thread.
 *
 * <p>Sticky and balanced: a member keeps the tasks it owns while it holds no more than its share
 * ({@code ceil(tasks / members)}); the rest go to the least-loaded members. Cooperative: a task
 * that moves is not given to its new owner in the same rebalance; its old owner revokes it
 * (committing first) and the follow-up rebalance that revocation triggers hands it over, so no
 * partition is ever processed by two members at once.
 *
 * <p>The topology reaches the assignor through the consumer's configuration (key
 * {@link #TOPOLOGY_CONFIG}), since the consumer creates the assignor itself.
 */
public final class TaskAssignor implements ConsumerPartitionAssignor, Configurable {

    public static final String TOPOLOGY_CONFIG = "weir.internal.topology";

    private TopologyModel model;

    @Override
    public void configure(Map<String, ?> configs) {
        Object m = configs.get(TOPOLOGY_CONFIG);
        if (!(m instanceof TopologyModel tm)) {
            throw new IllegalStateException(TOPOLOGY_CONFIG + " missing from the consumer configuration");
        }
        this.model = tm;
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
    public GroupAssignment assign(Cluster metadata, GroupSubscription groupSubscription) {
        Map<String, Subscription> subs = new TreeMap<>(groupSubscription.groupSubscription());
        Map<TaskId, List<TopicPartition>> tasks = tasks(metadata, subs);
        Map<TaskId, String> previousOwner = previousOwners(subs);

        Map<String, List<TaskId>> target = balance(new ArrayList<>(subs.keySet()), tasks, previousOwner);

        Map<String, Assignment> result = new HashMap<>();
        for (Map.Entry<String, List<TaskId>> e : target.entrySet()) {
            String member = e.getKey();
            List<TopicPartition> partitions = new ArrayList<>();
            for (TaskId task : e.getValue()) {
                String owner = previousOwner.get(task);
                // Cooperative hand-over: the old owner must revoke first.
                if (owner == null || owner.equals(member) || !subs.containsKey(owner)) {
                    partitions.addAll(tasks.get(task));
                }
            }
            result.put(member, new Assignment(partitions));
        }
        return new GroupAssignment(result);
    }

    private Map<TaskId, List<TopicPartition>> tasks(Cluster metadata, Map<String, Subscription> subs) {
        Map<TaskId, List<TopicPartition>> tasks = new TreeMap<>();
        java.util.Set<String> topics = new java.util.TreeSet<>();
        subs.values().forEach(s -> topics.addAll(s.topics()));
        for (String topic : topics) {
            Subtopology st = model.subtopologyFor(topic);
            Integer count = metadata.partitionCountForTopic(topic);
            if (st == null || count == null) {
                continue;
            }
            for (int p = 0; p < count; p++) {
                tasks.computeIfAbsent(new TaskId(st.id(), p), k -> new ArrayList<>()).add(new TopicPartition(topic, p));
            }
        }
        return tasks;
    }

    private Map<TaskId, String> previousOwners(Map<String, Subscription> subs) {
        Map<TaskId, String> owners = new HashMap<>();
        for (Map.Entry<String, Subscription> e : subs.entrySet()) {
            for (TopicPartition tp : e.getValue().ownedPartitions()) {
                Subtopology st = model.subtopologyFor(tp.topic());
                if (st != null) {
                    owners.putIfAbsent(new TaskId(st.id(), tp.partition()), e.getKey());
                }
            }
        }
        return owners;
    }

    /** Target owner of every task: sticky up to each member's share, then least-loaded first. */
    static Map<String, List<TaskId>> balance(List<String> members, Map<TaskId, List<TopicPartition>> tasks,
                                             Map<TaskId, String> previousOwner) {
        Map<String, List<TaskId>> target = new TreeMap<>();
        members.forEach(m -> target.put(m, new ArrayList<>()));
        if (members.isEmpty()) {
            return target;
        }
        int total = tasks.size();
        int floor = total / members.size();
        int extra = total % members.size();
        List<TaskId> unassigned = new ArrayList<>();
        int membersAtCeiling = 0;
        for (TaskId task : tasks.keySet()) {
            String owner = previousOwner.get(task);
            List<TaskId> owned = owner == null ? null : target.get(owner);
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
            String least = null;
            for (String m : members) {
                if (least == null || target.get(m).size() < target.get(least).size()) {
                    least = m;
                }
            }
            target.get(least).add(task);
        }
        return target;
    }
}
