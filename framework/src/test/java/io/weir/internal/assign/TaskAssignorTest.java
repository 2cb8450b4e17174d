package io.weir.internal.assign;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import io.weir.errors.TopologyException;
import io.weir.internal.assign.MemberHooks.AssignmentSettings;
import io.weir.internal.assign.MemberHooks.MemberAssignment;
import io.weir.internal.topology.TopologyModel;
import io.weir.processor.TaskId;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerGroupMetadata;
import org.apache.kafka.clients.consumer.ConsumerPartitionAssignor.GroupAssignment;
import org.apache.kafka.clients.consumer.ConsumerPartitionAssignor.GroupSubscription;
import org.apache.kafka.clients.consumer.ConsumerPartitionAssignor.Subscription;
import org.apache.kafka.common.Cluster;
import org.apache.kafka.common.Node;
import org.apache.kafka.common.PartitionInfo;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;

/**
 * The assignor as Kafka drives it: subscriptions built by each member's assignor, the leader's
 * {@code assign}, and each member's {@code onAssignment}. The placement rules themselves are
 * tested in {@code TaskPlacementTest}.
 */
class TaskAssignorTest {

    private static final List<String> TOPICS = List.of("a", "b", "c");
    private static final String CHANGELOG = AssignTopologies.APP + "-counts-changelog";

    private final TopologyModel model = AssignTopologies.statefulMergeAndStatelessCopy();
    private final Map<String, FakeHooks> hooks = new TreeMap<>();
    private final Map<String, TaskAssignor> assignors = new TreeMap<>();

    /** One member's runtime side, as the stream thread will provide it. */
    static final class FakeHooks implements MemberHooks {
        final String instance;
        final int thread;
        AssignmentSettings settings = new AssignmentSettings(0, 2, 100);
        Map<TaskId, Long> sums = new HashMap<>();
        Map<TopicPartition, Long> ends = new HashMap<>();
        RuntimeException endsFailure;
        final List<Set<TopicPartition>> endOffsetCalls = new ArrayList<>();
        MemberAssignment received;
        String endpoint = "";

        FakeHooks(String instance, int thread) {
            this.instance = instance;
            this.thread = thread;
        }

        @Override
        public String instanceId() {
            return instance;
        }

        @Override
        public int threadIndex() {
            return thread;
        }

        @Override
        public String endpoint() {
            return endpoint;
        }

        @Override
        public AssignmentSettings settings() {
            return settings;
        }

        @Override
        public Map<TaskId, Long> taskOffsetSums() {
            return sums;
        }

        @Override
        public void onAssignment(MemberAssignment assignment) {
            received = assignment;
        }

        @Override
        public Map<TopicPartition, Long> endOffsets(Set<TopicPartition> changelogs) {
            endOffsetCalls.add(changelogs);
            if (endsFailure != null) {
                throw endsFailure;
            }
            return ends;
        }
    }

    /** A member (consumer) {@code <instance>-<thread>} with its own assignor and hooks. */
    private FakeHooks member(String instance, int thread) {
        FakeHooks h = new FakeHooks(instance, thread);
        TaskAssignor a = new TaskAssignor();
        a.configure(Map.of(
                TaskAssignor.TOPOLOGY_CONFIG,
                model,
                MemberHooks.CONFIG,
                h,
                ConsumerConfig.GROUP_ID_CONFIG,
                AssignTopologies.APP));
        hooks.put(instance + "-" + thread, h);
        assignors.put(instance + "-" + thread, a);
        return h;
    }

    private static Cluster cluster(Map<String, Integer> partitions) {
        Node node = new Node(0, "localhost", 9092);
        List<PartitionInfo> infos = new ArrayList<>();
        partitions.forEach((t, n) -> {
            for (int p = 0; p < n; p++) {
                infos.add(new PartitionInfo(t, p, node, new Node[] {node}, new Node[] {node}));
            }
        });
        return new Cluster("c", List.of(node), infos, Set.of(), Set.of());
    }

    private static Cluster cluster(int partitions) {
        return cluster(Map.of("a", partitions, "b", partitions, "c", partitions));
    }

    private Subscription sub(String member, List<TopicPartition> owned) {
        return new Subscription(TOPICS, assignors.get(member).subscriptionUserData(Set.copyOf(TOPICS)), owned);
    }

    /** One rebalance led by {@code leader}: every live member subscribes with what it owns now. */
    private GroupAssignment rebalance(String leader, Cluster cluster, Map<String, List<TopicPartition>> owned) {
        Map<String, Subscription> subs = new HashMap<>();
        owned.forEach((m, parts) -> subs.put(m, sub(m, parts)));
        GroupAssignment ga = assignors.get(leader).assign(cluster, new GroupSubscription(subs));
        ga.groupAssignment().forEach((m, a) -> assignors.get(m).onAssignment(a, new ConsumerGroupMetadata("app")));
        return ga;
    }

    private static Map<String, List<TopicPartition>> owning(GroupAssignment ga) {
        Map<String, List<TopicPartition>> owned = new HashMap<>();
        ga.groupAssignment().forEach((m, a) -> owned.put(m, a.partitions()));
        return owned;
    }

    private static Set<TopicPartition> partitionsOf(GroupAssignment ga, String member) {
        return new HashSet<>(ga.groupAssignment().get(member).partitions());
    }

    @Test
    void coPartitionedTopicsLandOnTheSameMemberAndLoadIsBalanced() {
        member("x", 0);
        member("y", 0);
        member("z", 0);
        GroupAssignment ga = rebalance("x-0", cluster(4), Map.of("x-0", List.of(), "y-0", List.of(), "z-0", List.of()));
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
                .map(a -> (int) a.partitions().stream()
                        .filter(tp -> !tp.topic().equals("b"))
                        .count())
                .sorted()
                .toList();
        assertThat(taskCounts).containsExactly(2, 3, 3);
    }

    @Test
    void stickyAndCooperativeWhenAMemberJoins() {
        member("x", 0);
        member("y", 0);
        GroupAssignment first = rebalance("x-0", cluster(4), Map.of("x-0", List.of(), "y-0", List.of()));
        FakeHooks z = member("z", 0);
        Map<String, List<TopicPartition>> three = owning(first);
        three.put("z-0", List.of());
        GroupAssignment second = rebalance("x-0", cluster(4), three);
        // Nothing moves directly to z in this round: its tasks are revoked first.
        for (String m : List.of("x-0", "y-0")) {
            assertThat(partitionsOf(first, m)).containsAll(partitionsOf(second, m));
        }
        assertThat(partitionsOf(second, "z-0")).isEmpty();
        // Every member learns which tasks are on the move, so that it joins the follow-up at once.
        java.util.SortedSet<TaskId> moving = z.received.owners().moving();
        assertThat(moving).isNotEmpty();
        // After revocation, the follow-up round gives z the revoked tasks.
        GroupAssignment third = rebalance("x-0", cluster(4), owning(second));
        assertThat(partitionsOf(third, "z-0")).isNotEmpty();
        assertThat(partitionsOf(third, "z-0").stream()
                        .filter(tp -> tp.topic().equals("a"))
                        .map(tp -> new TaskId(0, tp.partition()))
                        .toList())
                .containsExactlyInAnyOrderElementsOf(
                        moving.stream().filter(t -> t.subtopology() == 0).toList());
        assertThat(z.received.owners().moving()).as("nothing left on the move").isEmpty();
        assertThat(third.groupAssignment().values().stream()
                        .mapToInt(a -> a.partitions().size())
                        .sum())
                .isEqualTo(12);
    }

    @Test
    void aLeavingMembersTasksAreReassignedAtOnce() {
        member("x", 0);
        member("y", 0);
        GroupAssignment first = rebalance("x-0", cluster(4), Map.of("x-0", List.of(), "y-0", List.of()));
        GroupAssignment second = rebalance(
                "x-0",
                cluster(4),
                Map.of("x-0", first.groupAssignment().get("x-0").partitions()));
        assertThat(second.groupAssignment().get("x-0").partitions()).hasSize(12);
    }

    @Test
    void threadsOfOneInstanceShareTheInstancesShare() {
        member("x", 0);
        member("x", 1);
        member("y", 0);
        GroupAssignment ga = rebalance("y-0", cluster(6), Map.of("x-0", List.of(), "x-1", List.of(), "y-0", List.of()));
        // 12 tasks, 3 threads: x (2 threads) runs 8, y runs 4; 4 per thread.
        for (String m : List.of("x-0", "x-1", "y-0")) {
            assertThat(partitionsOf(ga, m).stream()
                            .filter(tp -> !tp.topic().equals("b"))
                            .count())
                    .as(m)
                    .isEqualTo(4);
        }
    }

    @Test
    void tasksGoWhereTheirStateIsReadingChangelogEndsOncePerRebalance() {
        FakeHooks leader = member("x", 0);
        FakeHooks y = member("y", 0);
        leader.ends.putAll(Map.of(new TopicPartition(CHANGELOG, 0), 1_000L, new TopicPartition(CHANGELOG, 1), 1_000L));
        // Stores on disk from an earlier run: y holds task 0_0, x holds 0_1 (x's id sorts first).
        y.sums.put(new TaskId(0, 0), 990L);
        leader.sums.put(new TaskId(0, 1), 1_000L);
        GroupAssignment ga = rebalance("x-0", cluster(2), Map.of("x-0", List.of(), "y-0", List.of()));
        assertThat(partitionsOf(ga, "y-0")).contains(new TopicPartition("a", 0), new TopicPartition("b", 0));
        assertThat(partitionsOf(ga, "x-0")).contains(new TopicPartition("a", 1), new TopicPartition("b", 1));
        assertThat(leader.endOffsetCalls)
                .containsExactly(Set.of(new TopicPartition(CHANGELOG, 0), new TopicPartition(CHANGELOG, 1)));
        assertThat(y.endOffsetCalls).isEmpty();
    }

    @Test
    void unreadableEndOffsetsFallBackToTheStateInstancesReport() {
        FakeHooks leader = member("x", 0);
        FakeHooks y = member("y", 0);
        leader.endsFailure = new org.apache.kafka.common.errors.TimeoutException("no broker");
        y.sums.put(new TaskId(0, 0), 800L);
        leader.sums.put(new TaskId(0, 1), 700L);
        GroupAssignment ga = rebalance("x-0", cluster(2), Map.of("x-0", List.of(), "y-0", List.of()));
        assertThat(partitionsOf(ga, "y-0")).contains(new TopicPartition("a", 0));
        assertThat(partitionsOf(ga, "x-0")).contains(new TopicPartition("a", 1));
    }

    /**
     * Rebalances members x (the leader, asking for one standby) and y over two partitions of a
     * stateful topic; returns the partition of the task x runs (y runs the other).
     */
    private int xTaskWithOneStandbyEach(FakeHooks x) {
        x.settings = new AssignmentSettings(1, 2, 100);
        GroupAssignment ga = rebalance("x-0", cluster(2), Map.of("x-0", List.of(), "y-0", List.of()));
        return partitionsOf(ga, "x-0").stream()
                .filter(tp -> tp.topic().equals("a"))
                .findFirst()
                .orElseThrow()
                .partition();
    }

    @Test
    void standbysReachEachMembersHooks() {
        FakeHooks x = member("x", 0);
        FakeHooks y = member("y", 0);
        // Each instance runs one stateful task (0_p) and keeps the other's as a standby.
        int xTask = xTaskWithOneStandbyEach(x);
        assertThat(x.received.standbys()).containsExactly(new TaskId(0, 1 - xTask));
        assertThat(y.received.standbys()).containsExactly(new TaskId(0, xTask));
        assertThat(x.received.warmups()).isEmpty();
    }

    @Test
    void everyMemberHearsWhereEveryTaskRunsAndEachInstancesEndpoint() {
        FakeHooks x = member("x", 0);
        FakeHooks y = member("y", 0);
        x.endpoint = "http://x:8080";
        y.endpoint = "http://y:8080";
        int xTask = xTaskWithOneStandbyEach(x);
        TaskOwners seen = x.received.owners();
        assertThat(y.received.owners()).as("the same view for every member").isEqualTo(seen);
        assertThat(seen.activeOf(new TaskId(0, xTask))).contains("x");
        assertThat(seen.activeOf(new TaskId(0, 1 - xTask))).contains("y");
        assertThat(seen.standbysOf(new TaskId(0, xTask))).containsExactly("y");
        assertThat(seen.endpointOf("x")).isEqualTo("http://x:8080");
        assertThat(seen.endpointOf("y")).isEqualTo("http://y:8080");
        assertThat(seen.tasks().get(0)).as("tasks of sub-topology 0").isEqualTo(2);
    }

    @Test
    void warmupsReachTheMemberThatWarmsUpWhileTheTasksStay() {
        FakeHooks x = member("x", 0);
        Cluster stateful = cluster(Map.of("a", 4, "b", 4));
        GroupAssignment alone = rebalance("x-0", stateful, Map.of("x-0", List.of()));
        for (int p = 0; p < 4; p++) {
            x.ends.put(new TopicPartition(CHANGELOG, p), 5_000L);
            x.sums.put(new TaskId(0, p), MemberHooks.RUNNING);
        }
        FakeHooks y = member("y", 0);
        Map<String, List<TopicPartition>> owned = owning(alone);
        owned.put("y-0", List.of());
        GroupAssignment ga = rebalance("x-0", stateful, owned);
        assertThat(partitionsOf(ga, "x-0")).hasSize(8);
        assertThat(partitionsOf(ga, "y-0")).isEmpty();
        assertThat(y.received.warmups()).hasSize(2).isEqualTo(y.received.standbys());
        assertThat(x.received.standbys()).isEmpty();
        assertThat(x.received.owners().activeOf(new TaskId(0, 0))).contains("x");
    }

    @Test
    void requiresTheMemberHooksInTheConsumerConfiguration() {
        TaskAssignor a = new TaskAssignor();
        assertThatThrownBy(() ->
                        a.configure(Map.of(TaskAssignor.TOPOLOGY_CONFIG, model, ConsumerConfig.GROUP_ID_CONFIG, "app")))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining(MemberHooks.CONFIG);
    }

    @Test
    void refusesInputsThatAreNotCoPartitionedForAStatefulSubtopology() {
        member("x", 0);
        assertThatThrownBy(() -> rebalance("x-0", cluster(Map.of("a", 2, "b", 3, "c", 1)), Map.of("x-0", List.of())))
                .isInstanceOf(TopologyException.class)
                .hasMessageContaining("a has 2 partitions, b has 3 partitions");
    }

    @Test
    void aMemberWithAnUnreadableSubscriptionIsAnInstanceOfItsOwn() {
        member("x", 0);
        member("y", 0);
        Map<String, Subscription> subs = Map.of(
                "x-0",
                sub("x-0", List.of()),
                "y-0",
                new Subscription(TOPICS, ByteBuffer.wrap(new byte[] {42, 1}), List.of()));
        GroupAssignment ga = assignors.get("x-0").assign(cluster(2), new GroupSubscription(subs));
        assertThat(partitionsOf(ga, "x-0")).isNotEmpty();
        assertThat(partitionsOf(ga, "y-0")).isNotEmpty();
    }

    @Test
    void logsThePlacementOnlyWhenItChanges() {
        Logger logger = (Logger) LoggerFactory.getLogger(TaskAssignor.class);
        ListAppender<ILoggingEvent> appender = new ListAppender<>();
        appender.start();
        logger.addAppender(appender);
        try {
            member("x", 0);
            member("y", 0);
            GroupAssignment first = rebalance("x-0", cluster(2), Map.of("x-0", List.of(), "y-0", List.of()));
            rebalance("x-0", cluster(2), owning(first));
            assertThat(appender.list).hasSize(1);
            assertThat(appender.list.get(0).getFormattedMessage())
                    .isEqualTo("task placement changed: 2 instances: x 2 active; y 2 active");
        } finally {
            logger.detachAppender(appender);
        }
    }
}
