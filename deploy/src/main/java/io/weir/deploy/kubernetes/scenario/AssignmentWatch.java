package io.weir.deploy.kubernetes.scenario;

import io.weir.common.internal.Worker;
import java.time.Duration;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Supplier;
import org.apache.kafka.common.TopicPartition;

/**
 * Samples the consumer group's assignment every 250 ms from its own worker and records every topic
 * partition seen held by another pod than at the start: a rolling update that keeps static
 * membership moves none (a partition briefly held by nobody while its pod restarts is no move).
 */
final class AssignmentWatch {

    private static final Duration SAMPLE = Duration.ofMillis(250);
    private final Map<TopicPartition, String> moved = new ConcurrentHashMap<>();
    private final Worker sampler;

    AssignmentWatch(Supplier<Map<TopicPartition, String>> assignment, Map<TopicPartition, String> initial) {
        sampler = Worker.every("assignment-watch", SAMPLE, self -> {
            try {
                assignment.get().forEach((tp, owner) -> {
                    if (initial.containsKey(tp) && !owner.equals(initial.get(tp))) {
                        moved.putIfAbsent(tp, owner);
                    }
                });
            } catch (RuntimeException e) {
                // the group is being rebalanced or the broker is busy: the next sample tells
            }
        });
    }

    /** Stops sampling; returns each partition that moved, with the pod it moved to first. */
    Map<TopicPartition, String> stop() {
        sampler.close();
        Map<TopicPartition, String> sorted = new TreeMap<>(
                java.util.Comparator.comparing(TopicPartition::topic).thenComparingInt(TopicPartition::partition));
        sorted.putAll(moved);
        return sorted;
    }
}
