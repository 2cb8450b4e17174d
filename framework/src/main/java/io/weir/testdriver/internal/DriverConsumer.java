package io.weir.testdriver.internal;

import io.weir.internal.thread.TaskManager;
import io.weir.processor.TaskId;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.MockConsumer;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;

/**
 * What the consumer group and the poll do for the test driver's one thread: which input
 * partitions the consumer holds (every partition a source reads, less those of revoked tasks),
 * where it starts on each (the committed offset, else the beginning), and the fetch that hands
 * each task the records at its positions, at most {@link #FETCH_MAX} per partition as
 * {@code max.poll.records} bounds a poll.
 *
 * <p>Threading: the caller's thread, as the driver.
 */
final class DriverConsumer {

    /** Records fetched from one partition at a time, as {@code max.poll.records} bounds a poll. */
    static final int FETCH_MAX = 1000;

    private final MockConsumer<byte[], byte[]> consumer = new MockConsumer<>("earliest");
    private final DriverTopics topics;
    /** Every partition a source reads, in task order. */
    private List<TopicPartition> inputs = List.of();
    /** What the consumer is assigned: the inputs of the tasks not revoked, in task order. */
    private List<TopicPartition> assigned = List.of();

    private final Set<TaskId> revoked = new TreeSet<>();
    private TaskManager manager;

    DriverConsumer(DriverTopics topics) {
        this.topics = topics;
    }

    MockConsumer<byte[], byte[]> consumer() {
        return consumer;
    }

    /** Takes every partition of {@code inputs} (in task order) and has {@code manager} create their tasks. */
    void assignAll(List<TopicPartition> inputs, TaskManager manager) {
        this.inputs = List.copyOf(inputs);
        this.manager = manager;
        assign(this.inputs);
    }

    /**
     * What the group and a poll do for newly assigned partitions: the consumer takes them at their
     * committed offsets (else at the beginning) and the manager creates their tasks, which restore.
     */
    private void assign(List<TopicPartition> partitions) {
        updateAssignment();
        for (TopicPartition tp : partitions) {
            OffsetAndMetadata c = topics.committedOffsets().get(tp);
            consumer.seek(tp, c != null ? c.offset() : 0);
        }
        manager.assigned(partitions);
    }

    /** A rebalance that takes {@code task} away: its work is committed and it closes, its partitions leave. */
    void revoke(TaskId task) {
        manager.revoked(partitionsOf(task));
        revoked.add(task);
        updateAssignment();
    }

    /** A rebalance that gives {@code task} back; false if it was not revoked. */
    boolean reassign(TaskId task) {
        if (!revoked.remove(task)) {
            return false;
        }
        assign(partitionsOf(task));
        return true;
    }

    Set<TaskId> revoked() {
        return revoked;
    }

    boolean reads(TopicPartition tp) {
        return inputs.contains(tp);
    }

    /** The consumer takes the input partitions of the tasks not revoked. */
    private void updateAssignment() {
        assigned = inputs.stream()
                .filter(tp -> !revoked.contains(manager.tasks().taskIdFor(tp)))
                .toList();
        consumer.assign(assigned);
        consumer.commitSync(topics.committedOffsets()); // MockConsumer's assign forgets the group's offsets
    }

    private List<TopicPartition> partitionsOf(TaskId task) {
        return inputs.stream()
                .filter(tp -> task.equals(manager.tasks().taskIdFor(tp)))
                .toList();
    }

    /** Hands each task the records at its consumer positions, except on paused partitions. */
    void fetch() {
        Set<TopicPartition> paused = consumer.paused();
        for (TopicPartition tp : assigned) {
            if (paused.contains(tp)) {
                continue;
            }
            long position = consumer.position(tp);
            List<ConsumerRecord<byte[], byte[]>> records = topics.fetch(tp, position, FETCH_MAX);
            if (!records.isEmpty()) {
                consumer.seek(tp, position + records.size());
                manager.addRecords(tp, records);
            }
        }
    }

    /** True while an assigned, unpaused partition has records past the consumer's position. */
    boolean fetchable() {
        Set<TopicPartition> paused = consumer.paused();
        for (TopicPartition tp : assigned) {
            if (!paused.contains(tp) && consumer.position(tp) < topics.endOffset(tp)) {
                return true;
            }
        }
        return false;
    }

    void close() {
        consumer.close();
    }
}
