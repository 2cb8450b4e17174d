package io.weir.benchmarks.systems;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Optional;
import java.util.Set;
import org.apache.kafka.common.GroupState;
import org.junit.jupiter.api.Test;

class GroupAssignmentTest {

    private static final List<String> THREE = List.of("instance-0", "instance-1", "instance-2");

    private static GroupAssignment.Member member(String groupInstanceId, Integer... partitions) {
        return new GroupAssignment.Member(Optional.ofNullable(groupInstanceId), Set.of(partitions));
    }

    @Test
    void groupsMembersByInstanceFromTheirStaticIds() {
        GroupAssignment a = GroupAssignment.of(
                GroupState.STABLE,
                List.of(
                        member("instance-0-0", 0, 1, 2, 3), // Weir: <instance.id>-<thread index from 0>
                        member("instance-1-1", 4, 5, 6, 7), // Kafka Streams: <group.instance.id>-<thread index from 1>
                        member("instance-2-0", 8, 9, 10, 11)),
                THREE);

        assertThat(a.partitionsOf("instance-1")).containsExactlyInAnyOrder(4, 5, 6, 7);
        assertThat(a.members()).isEqualTo(3);
        assertThat(a.imbalance(12)).isEmpty();
    }

    @Test
    void anInstanceWithoutItsShareIsNotBalanced() {
        GroupAssignment a = GroupAssignment.of(
                GroupState.STABLE,
                List.of(
                        member("instance-0-0", 0, 1, 2, 3, 4, 5),
                        member("instance-1-0", 6, 7, 8, 9, 10, 11),
                        member("instance-2-0")),
                THREE);

        assertThat(a.imbalance(12)).hasValueSatisfying(m -> assertThat(m).contains("instance-0 owns 6"));
    }

    @Test
    void aGroupThatIsRebalancingIsNotBalanced() {
        GroupAssignment a = GroupAssignment.of(
                GroupState.PREPARING_REBALANCE,
                List.of(
                        member("instance-0-0", 0, 1, 2, 3),
                        member("instance-1-0", 4, 5, 6, 7),
                        member("instance-2-0", 8, 9, 10, 11)),
                THREE);

        assertThat(a.imbalance(12)).isPresent();
    }

    @Test
    void aMemberOfNoListedInstanceIsNotBalanced() {
        // instance-1 was killed and not yet dropped by the coordinator; the survivors hold the rest.
        GroupAssignment a = GroupAssignment.of(
                GroupState.STABLE,
                List.of(
                        member("instance-0-0", 0, 1, 2, 3, 4, 5),
                        member("instance-1-0"),
                        member("instance-2-0", 6, 7, 8, 9, 10, 11)),
                List.of("instance-0", "instance-2"));

        assertThat(a.otherMembers()).isEqualTo(1);
        assertThat(a.imbalance(12)).isPresent();
    }

    @Test
    void unevenCountsMayDifferByOne() {
        GroupAssignment a = GroupAssignment.of(
                GroupState.STABLE,
                List.of(
                        member("instance-0-0", 0, 1, 2, 3),
                        member("instance-1-0", 4, 5, 6),
                        member("instance-2-0", 7, 8, 9)),
                THREE);

        assertThat(a.imbalance(10)).isEmpty();
    }

    @Test
    void aPartitionOwnedTwiceOrByNobodyIsNotBalanced() {
        GroupAssignment a = GroupAssignment.of(
                GroupState.STABLE,
                List.of(
                        member("instance-0-0", 0, 1, 2, 3),
                        member("instance-1-0", 3, 4, 5, 6),
                        member("instance-2-0", 7, 8, 9, 10)),
                THREE);

        assertThat(a.imbalance(12)).hasValueSatisfying(m -> assertThat(m).contains("11 of 12"));
    }

    @Test
    void aPrefixOfAnotherInstanceNameIsNotConfused() {
        GroupAssignment a = GroupAssignment.of(
                GroupState.STABLE, List.of(member("instance-10-0", 0)), List.of("instance-1", "instance-10"));

        assertThat(a.partitionsOf("instance-1")).isEmpty();
        assertThat(a.partitionsOf("instance-10")).containsExactly(0);
    }
}
