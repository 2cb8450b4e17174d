package io.weir.deploy.kubernetes.scenario;

import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Supplier;
import org.apache.kafka.common.TopicPartition;

/**
 * Samples the consumer group's assignment every 250 ms from its own thread and records every topic
 * partition seen held by another pod than at the start: a rolling update that keeps static
 * membership moves none (a partition briefly held by nobody while its pod restarts is no move).
 */
final class AssignmentWatch {

    private final Map<TopicPartition, String> moved = new ConcurrentHashMap<>();
    private final Thread thread;
    private volatile boolean stopped;

    AssignmentWatch(Supplier<Map<TopicPartition, String>> assignment, Map<TopicPartition, String> initial) {
        thread = new Thread(
                () -> {
                    while (!stopped) {
                        try {
                            assignment.get().forEach((tp, owner) -> {
                                if (initial.containsKey(tp) && !owner.equals(initial.get(tp))) {
                                    moved.putIfAbsent(tp, owner);
                                }
                            });
                        } catch (RuntimeException e) {
                            // the group is being rebalanced or the broker is busy: the next sample tells
                        }
                        try {
                            Thread.sleep(250); // the sampling period
                        } catch (InterruptedException e) {
                            return;
                        }
                    }
                },
                "assignment-watch");
        thread.setDaemon(true);
        thread.start();
    }

    /** Stops sampling; returns each partition that moved, with the pod it moved to first. */
    Map<TopicPartition, String> stop() {
        stopped = true;
        thread.interrupt();
        try {
            thread.join(5000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        Map<TopicPartition, String> sorted = new TreeMap<>(
                java.util.Comparator.comparing(TopicPartition::topic).thenComparingInt(TopicPartition::partition));
        sorted.putAll(moved);
        return sorted;
    }
}
