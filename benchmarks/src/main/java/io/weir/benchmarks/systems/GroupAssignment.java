package io.weir.benchmarks.systems;

import io.weir.common.internal.KafkaCalls;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.ConsumerGroupDescription;
import org.apache.kafka.clients.admin.MemberDescription;
import org.apache.kafka.common.GroupState;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.GroupIdNotFoundException;

/**
 * Which input partitions each instance of an application owns, as the group coordinator lists
 * them ({@code Admin.describeConsumerGroups}): the same view for Weir and Kafka Streams, both of
 * which run the classic group protocol with an assignor of their own and the standard consumer
 * assignment format, so the members' assignments read as topic partitions (active tasks only;
 * standbys are not partitions of the group).
 *
 * <p>A member belongs to instance {@code i} if its {@code group.instance.id} is {@code i-<n>}: Weir
 * names its stream threads' static members {@code <instance.id>-<thread index>}, Kafka Streams
 * {@code <main.consumer.group.instance.id>-<thread index>}. Members of no listed instance (a
 * SIGKILLed one, until the coordinator drops it) are counted in {@code otherMembers}.
 *
 * @param state the group's state ({@code STABLE} once a rebalance has completed; {@code DEAD} if
 *        the coordinator does not know the group yet)
 * @param partitionsByInstance per listed instance, the input partitions its members own
 * @param members the members of listed instances
 * @param otherMembers members of no listed instance
 */
public record GroupAssignment(
        GroupState state, Map<String, Set<Integer>> partitionsByInstance, int members, int otherMembers) {

    private static final Duration REQUEST_TIMEOUT = Duration.ofSeconds(10);

    /** One member as the coordinator lists it: its static id, if any, and its partitions of the input. */
    record Member(Optional<String> groupInstanceId, Set<Integer> partitions) {}

    public GroupAssignment {
        Map<String, Set<Integer>> copy = new LinkedHashMap<>();
        partitionsByInstance.forEach((i, p) -> copy.put(i, Set.copyOf(p)));
        partitionsByInstance = java.util.Collections.unmodifiableMap(copy);
    }

    /** Asks the coordinator for the group {@code groupId}'s members and their partitions of {@code topic}. */
    static GroupAssignment describe(Admin admin, String groupId, String topic, Collection<String> instances) {
        Optional<ConsumerGroupDescription> described = KafkaCalls.getIfExists(
                admin.describeConsumerGroups(List.of(groupId)).describedGroups().get(groupId),
                REQUEST_TIMEOUT,
                "describe the group " + groupId,
                GroupIdNotFoundException.class);
        if (described.isEmpty()) {
            return of(GroupState.DEAD, List.of(), instances); // no member has joined yet
        }
        ConsumerGroupDescription d = described.get();
        List<Member> members = new ArrayList<>();
        for (MemberDescription m : d.members()) {
            Set<Integer> partitions = new TreeSet<>();
            for (TopicPartition tp : m.assignment().topicPartitions()) {
                if (tp.topic().equals(topic)) {
                    partitions.add(tp.partition());
                }
            }
            members.add(new Member(m.groupInstanceId(), partitions));
        }
        return of(d.groupState(), members, instances);
    }

    /** The assignment of {@code members}, grouped by the listed {@code instances}. */
    static GroupAssignment of(GroupState state, Collection<Member> members, Collection<String> instances) {
        Map<String, Set<Integer>> byInstance = new LinkedHashMap<>();
        instances.forEach(i -> byInstance.put(i, new TreeSet<>()));
        int known = 0;
        int other = 0;
        for (Member m : members) {
            String instance =
                    m.groupInstanceId().map(id -> instanceOf(id, instances)).orElse(null);
            if (instance == null) {
                other++;
            } else {
                known++;
                byInstance.get(instance).addAll(m.partitions());
            }
        }
        return new GroupAssignment(state, byInstance, known, other);
    }

    private static String instanceOf(String groupInstanceId, Collection<String> instances) {
        for (String i : instances) {
            if (groupInstanceId.startsWith(i + "-")
                    && groupInstanceId.substring(i.length() + 1).chars().allMatch(Character::isDigit)) {
                return i;
            }
        }
        return null;
    }

    /** The input partitions {@code instance}'s members own. */
    public Set<Integer> partitionsOf(String instance) {
        return partitionsByInstance.getOrDefault(instance, Set.of());
    }

    /**
     * Why the assignment is not balanced over the listed instances, or empty if it is: the group is
     * {@code STABLE}, has one member per listed instance (one stream thread each) and none other, and
     * every instance owns {@code floor} or {@code ceil} of {@code partitions / instances} partitions,
     * all {@code partitions} together and none twice.
     */
    Optional<String> imbalance(int partitions) {
        if (state != GroupState.STABLE) {
            return Optional.of("group " + state);
        }
        int instances = partitionsByInstance.size();
        if (members != instances || otherMembers > 0) {
            return Optional.of(members + " members of " + instances + " instances and " + otherMembers + " other");
        }
        int low = partitions / instances;
        int high = (partitions + instances - 1) / instances;
        Set<Integer> all = new TreeSet<>();
        int owned = 0;
        for (Map.Entry<String, Set<Integer>> e : partitionsByInstance.entrySet()) {
            int n = e.getValue().size();
            if (n < low || n > high) {
                String share = low == high ? Integer.toString(low) : low + "-" + high;
                return Optional.of(e.getKey() + " owns " + n + " partitions, not " + share + " (" + counts() + ")");
            }
            all.addAll(e.getValue());
            owned += n;
        }
        if (all.size() != partitions || owned != partitions) {
            return Optional.of(all.size() + " of " + partitions + " partitions owned, " + owned + " assignments");
        }
        return Optional.empty();
    }

    /** {@code instance-0=4, instance-1=4, ...}: partitions per instance, for messages. */
    String counts() {
        StringBuilder s = new StringBuilder();
        partitionsByInstance.forEach((i, p) ->
                s.append(s.length() == 0 ? "" : ", ").append(i).append('=').append(p.size()));
        return s.toString();
    }
}
