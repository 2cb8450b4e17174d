package io.weir.internal.runtime;

import static org.assertj.core.api.Assertions.assertThat;

import io.weir.internal.topology.GraphBuilder;
import io.weir.internal.topology.TopologyModel;
import io.weir.serde.Serdes;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.kafka.clients.consumer.ConsumerPartitionAssignor.GroupAssignment;
import org.apache.kafka.clients.consumer.ConsumerPartitionAssignor.GroupSubscription;
import org.apache.kafka.clients.consumer.ConsumerPartitionAssignor.Subscription;
import org.apache.kafka.common.Cluster;
import org.apache.kafka.common.Node;
import org.apache.kafka.common.PartitionInfo;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.Test;

class TaskAssignorTest {

    private final TaskAssignor assignor = new TaskAssignor();

    TaskAssignorTest() {
        GraphBuilder g = new GraphBuilder();
        // a and b feed one node: one sub-topology, so partition p of both must land together
        g.addSource("src-a", List.of("a"), null, Serdes.strings(), Serdes.strings());
        g.addSource("src-b", List.of("b"), null, Serdes.strings(), Serdes.strings());
        g.addSink("out", "out", null, Serdes.strings(), Serdes.strings(), List.of("src-a", "src-b"));
        g.addSource("src-c", List.of("c"), null, Serdes.strings(), Serdes.strings());
        g.addSink("out2", "out2", null, Serdes.strings(), Serdes.strings(), List.of("src-c"));
        TopologyModel model = g.build();
        assignor.configure(Map.of(TaskAssignor.TOPOLOGY_CONFIG, model));
    }

    private static Cluster cluster(int partitions) {
        Node node = new Node(0, "localhost", 9092);
        List<PartitionInfo> infos = new ArrayList<>();
        for (String t : List.of("a", "b", "c")) {
            for (int p = 0; p < partitions; p++) {
                infos.add(new PartitionInfo(t, p, node, new Node[] {node}, new Node[] {node}));
            }
        }
        return new Cluster("c", List.of(node), infos, Set.of(), Set.of());
    }

    private static Subscription sub(List<TopicPartition> owned) {
        return new Subscription(List.of("a", "b", "c"), (ByteBuffer) null, owned);
    }

    @Test
    void coPartitionedTopicsLandOnTheSameMemberAndLoadIsBalanced() {
        Map<String, Subscription> subs = Map.of("m1", sub(List.of()), "m2", sub(List.of()), "m3", sub(List.of()));
        GroupAssignment ga = assignor.assign(cluster(4), new GroupSubscription(subs));
        Set<TopicPartition> all = new HashSet<>();
        for (var e : ga.groupAssignment().entrySet()) {
            List<TopicPartition> parts = e.getValue().partitions();
            for (TopicPartition tp : parts) {
                assertThat(all.add(tp)).as("assigned twice: %s", tp).isTrue();
                if (tp.topic().equals("a")) {
                    assertThat(parts).contains(new TopicPartition("b", tp.partition()));
                }
            }
        }
        assertThat(all).hasSize(12);
        // 8 tasks (4 of a+b, 4 of c) over 3 members: 3, 3, 2
        List<Integer> taskCounts = ga.groupAssignment().values().stream()
                .map(a -> (int) a.partitions().stream().filter(tp -> !tp.topic().equals("b")).count()).sorted().toList();
        assertThat(taskCounts).containsExactly(2, 3, 3);
    }

    @Test
    void stickyAndCooperativeWhenAMemberJoins() {
        Map<String, Subscription> two = Map.of("m1", sub(List.of()), "m2", sub(List.of()));
        GroupAssignment first = assignor.assign(cluster(4), new GroupSubscription(two));
        Map<String, Subscription> three = new HashMap<>();
        for (var e : first.groupAssignment().entrySet()) {
            three.put(e.getKey(), sub(e.getValue().partitions()));
        }
        three.put("m3", sub(List.of()));
        GroupAssignment second = assignor.assign(cluster(4), new GroupSubscription(three));
        // Nothing moves directly to m3 in this round: its tasks are revoked first.
        for (String m : List.of("m1", "m2")) {
            assertThat(first.groupAssignment().get(m).partitions())
                    .containsAll(second.groupAssignment().get(m).partitions());
        }
        assertThat(second.groupAssignment().get("m3").partitions()).isEmpty();
        // After revocation, the follow-up round gives m3 the revoked tasks.
        Map<String, Subscription> after = new HashMap<>();
        for (var e : second.groupAssignment().entrySet()) {
            after.put(e.getKey(), sub(e.getValue().partitions()));
        }
        GroupAssignment third = assignor.assign(cluster(4), new GroupSubscription(after));
        assertThat(third.groupAssignment().get("m3").partitions()).isNotEmpty();
        int total = third.groupAssignment().values().stream().mapToInt(a -> a.partitions().size()).sum();
        assertThat(total).isEqualTo(12);
    }

    @Test
    void aLeavingMembersTasksAreReassignedAtOnce() {
        Map<String, Subscription> two = Map.of("m1", sub(List.of()), "m2", sub(List.of()));
        GroupAssignment first = assignor.assign(cluster(4), new GroupSubscription(two));
        Map<String, Subscription> one = Map.of("m1", sub(first.groupAssignment().get("m1").partitions()));
        GroupAssignment second = assignor.assign(cluster(4), new GroupSubscription(one));
        assertThat(second.groupAssignment().get("m1").partitions()).hasSize(12);
    }
}
