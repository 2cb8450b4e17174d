package io.weir.deploy.kubernetes.scenario;

import io.weir.testkit.KafkaTestClient;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.apache.kafka.clients.admin.ConsumerGroupDescription;
import org.apache.kafka.common.TopicPartition;

/**
 * The application's consumer group as the broker describes it: which pod holds each topic partition.
 * Weir's stream threads are members with group.instance.id {@code <instance.id>-<thread>}, and
 * instance.id is the pod name. Thread-safe (each call asks the broker).
 */
final class ConsumerGroupView {

    /** Orders topic partitions by topic, then partition. */
    static final Comparator<TopicPartition> TOPIC_PARTITION =
            Comparator.comparing(TopicPartition::topic).thenComparingInt(TopicPartition::partition);

    private final KafkaTestClient kafka;
    private final String group;
    private final String input;
    private final int partitions;

    ConsumerGroupView(KafkaTestClient kafka, String group, String input, int partitions) {
        this.kafka = kafka;
        this.group = group;
        this.input = input;
        this.partitions = partitions;
    }

    /** Each topic partition and the pod holding it. */
    Map<TopicPartition, String> assignment() {
        try {
            ConsumerGroupDescription description = kafka.admin()
                    .describeConsumerGroups(List.of(group))
                    .all()
                    .get(10, TimeUnit.SECONDS)
                    .get(group);
            Map<TopicPartition, String> owners = new TreeMap<>(TOPIC_PARTITION);
            description
                    .members()
                    .forEach(m -> m.assignment()
                            .topicPartitions()
                            .forEach(tp -> owners.put(
                                    tp,
                                    m.groupInstanceId()
                                            .map(id -> id.replaceFirst("-\\d+$", ""))
                                            .orElse(m.consumerId()))));
            return owners;
        } catch (Exception e) {
            throw new IllegalStateException("cannot describe consumer group " + group, e);
        }
    }

    /** The group's committed offset of each input partition (absent: none yet). */
    Map<TopicPartition, Long> committed() {
        try {
            Map<TopicPartition, Long> offsets = new TreeMap<>(TOPIC_PARTITION);
            kafka.admin()
                    .listConsumerGroupOffsets(group)
                    .partitionsToOffsetAndMetadata()
                    .get(10, TimeUnit.SECONDS)
                    .forEach((tp, offset) -> {
                        if (offset != null && tp.topic().equals(input)) {
                            offsets.put(tp, offset.offset());
                        }
                    });
            return offsets;
        } catch (Exception e) {
            throw new IllegalStateException("cannot read the committed offsets of group " + group, e);
        }
    }

    /** Every partition of the input topic has an owner. */
    boolean assignedAll() {
        return assignment().keySet().stream()
                        .filter(tp -> tp.topic().equals(input))
                        .count()
                == partitions;
    }

    Set<TopicPartition> partitionsOf(String pod) {
        return assignment().entrySet().stream()
                .filter(e -> e.getValue().equals(pod))
                .map(Map.Entry::getKey)
                .collect(Collectors.toCollection(() -> new TreeSet<>(TOPIC_PARTITION)));
    }

    /** The assignment by pod, for the scenario's output. */
    Map<String, List<String>> owners() {
        Map<String, List<String>> byPod = new TreeMap<>();
        assignment()
                .forEach((tp, pod) ->
                        byPod.computeIfAbsent(pod, p -> new ArrayList<>()).add(tp.toString()));
        return byPod;
    }
}
