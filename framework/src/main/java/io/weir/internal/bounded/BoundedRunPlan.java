package io.weir.internal.bounded;

import io.weir.common.internal.KafkaCalls;
import io.weir.config.WeirConfig;
import io.weir.errors.ClusterException;
import io.weir.internal.topology.Subtopology;
import io.weir.internal.topology.TopologyModel;
import io.weir.processor.TaskId;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.ConsumerGroupDescription;
import org.apache.kafka.clients.admin.ListOffsetsOptions;
import org.apache.kafka.clients.admin.MemberDescription;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.common.IsolationLevel;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.GroupIdNotFoundException;

/**
 * Takes what a {@link BoundedRun} needs from the cluster at start: the end offset of every input
 * partition, the tasks, which sub-topologies write each repartition topic; and checks that no
 * other instance is in the group.
 *
 * <p>One instance holds every task of a bounded run (with any number of threads): completion,
 * the order in which sub-topologies end, and the repartition topics' ends are decided from what
 * its threads report, without a protocol between instances. Another member in the group fails the
 * run at start, and later (see {@link #otherMembers}) if one joins.
 */
public final class BoundedRunPlan {

    private static final Duration TIMEOUT = Duration.ofSeconds(30);

    private BoundedRunPlan() {}

    /**
     * Reads the plan and returns the run.
     *
     * @throws IllegalStateException if another instance is in the group
     * @throws ClusterException if the cluster does not answer or refuses a request
     */
    public static BoundedRun prepare(Admin admin, WeirConfig config, TopologyModel model, String instanceId) {
        otherMembers(admin, config.applicationId(), instanceId).ifPresent(problem -> {
            throw new IllegalStateException(problem);
        });
        model.repartitionCycle().ifPresent(cycle -> {
            throw new IllegalStateException("a bounded run ends sub-topologies in the order they write to each other,"
                    + " and " + cycle + " (a foreign-key join): bounded runs of such a topology are not supported yet");
        });
        Set<String> internal = new HashSet<>();
        model.internalSources().forEach(s -> internal.addAll(s.topics()));
        // Fixed topics, topics matching a pattern source now, and repartition topics.
        List<String> topics = new ArrayList<>();
        for (String t : call(admin.listTopics().names(), "list the topics")) {
            if (model.subtopologyFor(t) != null) {
                topics.add(t);
            }
        }
        Map<String, Integer> partitions = new HashMap<>();
        call(admin.describeTopics(topics).allTopicNames(), "describe the input topics " + topics)
                .forEach((t, d) -> partitions.put(t, d.partitions().size()));
        Map<TopicPartition, OffsetSpec> latest = new HashMap<>();
        partitions.forEach((t, n) -> {
            if (!internal.contains(t)) {
                for (int p = 0; p < n; p++) {
                    latest.put(new TopicPartition(t, p), OffsetSpec.latest());
                }
            }
        });
        Map<TopicPartition, Long> ends = offsets(admin, latest);
        long endWatermark = Long.MAX_VALUE;
        if (config.boundedUntil().isPresent()) {
            endWatermark = config.boundedUntil().get().toEpochMilli();
            // Each partition ends at its first record later than the instant (as offsetsForTimes finds it).
            Map<TopicPartition, OffsetSpec> later = new HashMap<>();
            long after = endWatermark + 1;
            latest.keySet().forEach(tp -> later.put(tp, OffsetSpec.forTimestamp(after)));
            offsets(admin, later).forEach((tp, offset) -> {
                if (offset >= 0) {
                    ends.merge(tp, offset, Math::min);
                }
            });
        }
        return new BoundedRun(
                new BoundedRun.Plan(ends, tasks(model, partitions), writers(model), endWatermark),
                topic -> repartitionEnds(admin, topic, partitions.getOrDefault(topic, 0)));
    }

    /**
     * A problem if the consumer group has a member that is not this instance (its own threads, or a
     * predecessor with the same {@code instance.id} whose static membership has not expired).
     *
     * @throws ClusterException if the group cannot be described
     */
    public static Optional<String> otherMembers(Admin admin, String applicationId, String instanceId) {
        Optional<ConsumerGroupDescription> described = KafkaCalls.getIfExists(
                admin.describeConsumerGroups(List.of(applicationId))
                        .describedGroups()
                        .get(applicationId),
                TIMEOUT,
                "describe the consumer group " + applicationId,
                GroupIdNotFoundException.class);
        if (described.isEmpty()) {
            return Optional.empty();
        }
        ConsumerGroupDescription group = described.get();
        List<String> others = new ArrayList<>();
        for (MemberDescription m : group.members()) {
            String id = m.groupInstanceId().orElse(null);
            if (id == null || !id.startsWith(instanceId + "-")) {
                others.add(m.groupInstanceId().orElse(m.consumerId()) + " on " + m.host());
            }
        }
        if (others.isEmpty()) {
            return Optional.empty();
        }
        return Optional.of("a bounded run (run.mode=bounded) of " + applicationId + " must be the only instance and"
                + " hold every task, but the consumer group has other members: " + others + "; stop the other"
                + " instances first (or run this one with run.mode=streaming)");
    }

    /** Every task: each partition number of the widest input of each sub-topology. */
    private static Map<Integer, Set<TaskId>> tasks(TopologyModel model, Map<String, Integer> partitions) {
        Map<Integer, Set<TaskId>> tasks = new HashMap<>();
        for (Subtopology st : model.subtopologies()) {
            int width = 0;
            for (Map.Entry<String, Integer> e : partitions.entrySet()) {
                if (st.reads(e.getKey())) {
                    width = Math.max(width, e.getValue());
                }
            }
            Set<TaskId> ids = new TreeSet<>();
            for (int p = 0; p < width; p++) {
                ids.add(new TaskId(st.id(), p));
            }
            tasks.put(st.id(), ids);
        }
        return tasks;
    }

    /** The sub-topologies that write each repartition topic. */
    private static Map<String, Set<Integer>> writers(TopologyModel model) {
        Map<String, Set<Integer>> writers = new HashMap<>();
        for (Subtopology st : model.subtopologies()) {
            for (String topic : model.repartitionTopicsWrittenBy(st)) {
                writers.computeIfAbsent(topic, t -> new HashSet<>()).add(st.id());
            }
        }
        return writers;
    }

    /**
     * The high watermark, not the last stable offset: every writer committed its last transaction,
     * but {@code commitTransaction} returns before the broker has written the commit markers, so
     * the last stable offset read now may still stop before that transaction's records (which the
     * downstream tasks would then never read). Nothing is added past the high watermark any more;
     * a read_committed consumer reaches it once the markers are written.
     */
    static Map<TopicPartition, Long> repartitionEnds(Admin admin, String topic, int partitions) {
        Map<TopicPartition, OffsetSpec> request = new HashMap<>();
        for (int p = 0; p < partitions; p++) {
            request.put(new TopicPartition(topic, p), OffsetSpec.latest());
        }
        return offsets(admin, request, IsolationLevel.READ_UNCOMMITTED);
    }

    /** read_committed: the last stable offset, so an open transaction's records are past the end. */
    private static Map<TopicPartition, Long> offsets(Admin admin, Map<TopicPartition, OffsetSpec> request) {
        return offsets(admin, request, IsolationLevel.READ_UNCOMMITTED);
    }

    private static Map<TopicPartition, Long> offsets(
            Admin admin, Map<TopicPartition, OffsetSpec> request, IsolationLevel isolation) {
        Map<TopicPartition, Long> result = new HashMap<>();
        if (request.isEmpty()) {
            return result;
        }
        call(
                        admin.listOffsets(request, new ListOffsetsOptions(isolation))
                                .all(),
                        "list the offsets of " + request.size() + " partitions")
                .forEach((tp, info) -> result.put(tp, info.offset()));
        return result;
    }

    private static <T> T call(org.apache.kafka.common.KafkaFuture<T> future, String what) {
        return KafkaCalls.get(future, TIMEOUT, what + " for a bounded run");
    }
}
