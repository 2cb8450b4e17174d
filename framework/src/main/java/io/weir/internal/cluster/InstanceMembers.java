package io.weir.internal.cluster;

import io.weir.common.internal.KafkaCalls;
import io.weir.errors.ClusterException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.ConsumerGroupDescription;
import org.apache.kafka.clients.admin.MemberDescription;
import org.apache.kafka.clients.admin.MemberToRemove;
import org.apache.kafka.clients.admin.RemoveMembersFromConsumerGroupOptions;
import org.apache.kafka.common.errors.GroupIdNotFoundException;
import org.apache.kafka.common.errors.UnknownMemberIdException;

/**
 * The consumer-group members of one Weir instance: its stream threads are static members named
 * {@code <instance.id>-<thread>}. Finds them in a group description and removes them through the
 * admin client, for the liveness watch (an instance gone silent) and for a close that leaves the
 * group (a consumer closed while it was still joining sends no leave request, and would otherwise
 * stay listed until its session times out).
 */
public final class InstanceMembers {

    private InstanceMembers() {}

    /** Static member ids are {@code <instance.id>-<thread>}; an id like "a-1-0" is not a member of "a". */
    static boolean isMemberOf(String staticId, String instance) {
        if (!staticId.startsWith(instance + "-")) {
            return false;
        }
        String rest = staticId.substring(instance.length() + 1);
        return rest.chars().allMatch(Character::isDigit) && !rest.isEmpty();
    }

    /** The members of {@code group} that belong to {@code instance}; empty when it has none left. */
    public static List<MemberToRemove> in(ConsumerGroupDescription group, String instance) {
        List<MemberToRemove> members = new ArrayList<>();
        for (MemberDescription m : group.members()) {
            String staticId = m.groupInstanceId().orElse(null);
            if (staticId != null && isMemberOf(staticId, instance)) {
                members.add(new MemberToRemove(staticId));
            }
        }
        return members;
    }

    /**
     * Removes {@code members} from {@code groupId}.
     *
     * @return true if they were removed, false if they were gone already (unknown to the coordinator)
     * @throws ClusterException if the removal failed for another reason, took longer than
     *     {@code timeout}, or the wait was interrupted (the interrupt flag is then set)
     */
    public static boolean remove(
            Admin admin, String groupId, List<MemberToRemove> members, String reason, Duration timeout) {
        RemoveMembersFromConsumerGroupOptions options = new RemoveMembersFromConsumerGroupOptions(members);
        options.reason(reason);
        try {
            KafkaCalls.get(
                    admin.removeMembersFromConsumerGroup(groupId, options).all(),
                    timeout,
                    "remove " + members.size() + " member(s) from the consumer group " + groupId);
            return true;
        } catch (ClusterException e) {
            if (e.getCause() instanceof UnknownMemberIdException) {
                return false;
            }
            throw e;
        }
    }

    /**
     * After this instance's consumers closed leaving the group: removes whichever of its members the
     * coordinator still lists, so the group is empty of it when this returns (the next bounded run,
     * a scale-in's rebalance, {@code weir reset} need not wait for a session timeout).
     *
     * @return how many members were still listed and removed
     * @throws ClusterException if describing the group or removing failed or took longer than
     *     {@code timeout}
     */
    public static int removeLeftovers(Admin admin, String groupId, String instance, Duration timeout) {
        Optional<ConsumerGroupDescription> group = KafkaCalls.getIfExists(
                        admin.describeConsumerGroups(List.of(groupId)).all(),
                        timeout,
                        "describe the consumer group " + groupId,
                        GroupIdNotFoundException.class)
                .map(groups -> groups.get(groupId));
        List<MemberToRemove> members = group.map(g -> in(g, instance)).orElse(List.of());
        if (members.isEmpty()) {
            return 0;
        }
        return remove(admin, groupId, members, "instance " + instance + " closed leaving the group", timeout)
                ? members.size()
                : 0;
    }
}
