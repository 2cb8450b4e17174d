package io.weir.internal.runtime;

import static org.assertj.core.api.Assertions.assertThat;

import io.weir.internal.state.TaskStores;
import io.weir.internal.topology.NodeSpec;
import io.weir.processor.Processor;
import io.weir.processor.Record;
import io.weir.processor.TaskId;
import io.weir.serde.Serdes;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.MockConsumer;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.Test;

class TaskTest {

    private static final TopicPartition A = new TopicPartition("a", 0);
    private static final TopicPartition B = new TopicPartition("b", 0);

    private final MockConsumer<byte[], byte[]> consumer = new MockConsumer<>("earliest");
    private final List<String> seen = new ArrayList<>();

    private Task task(int maxBuffered) {
        consumer.assign(List.of(A, B));
        SourceNode source = new SourceNode(new NodeSpec.Source("src", List.of("a", "b"), null,
                Serdes.strings(), Serdes.strings(), false));
        TaskContext ctx = new TaskContext(new TaskId(0, 0), "app", new Punctuations());
        Processor<Object, Object, Object, Object> collect = (Record<Object, Object> r) -> seen.add((String) r.value());
        ProcessorNode sink = new ProcessorNode("collect", collect, ctx, Map.of());
        source.children = new Node[] {sink};
        Task task = new Task(ctx.id(), ctx, List.of(source, sink), topic -> source, consumer,
                new DeadLetters("dlq", null, null), maxBuffered, TaskStores.none(), null);
        task.addPartition(A);
        task.addPartition(B);
        return task;
    }

    private static List<ConsumerRecord<byte[], byte[]>> records(TopicPartition tp, long firstOffset, long... timestamps) {
        List<ConsumerRecord<byte[], byte[]>> out = new ArrayList<>();
        for (int i = 0; i < timestamps.length; i++) {
            long offset = firstOffset + i;
            out.add(new ConsumerRecord<>(tp.topic(), tp.partition(), offset, timestamps[i],
                    org.apache.kafka.common.record.TimestampType.CREATE_TIME, 0, 0, null,
                    (tp.topic() + offset).getBytes(StandardCharsets.UTF_8), new org.apache.kafka.common.header.internals.RecordHeaders(),
                    java.util.Optional.empty()));
        }
        return out;
    }

    private static final RecordFailureHandler RETHROW = (r, stage, e) -> {
        throw new AssertionError("unexpected failure", e);
    };

    @Test
    void recordsOfSeveralPartitionsAreProcessedInTimestampOrder() {
        Task task = task(100);
        task.addRecords(A, records(A, 0, 10, 30, 50));
        task.addRecords(B, records(B, 0, 20, 40));
        task.process(100, RETHROW);
        assertThat(seen).containsExactly("a0", "b0", "a1", "b1", "a2");
    }

    @Test
    void aFullPartitionIsPausedUntilTheTaskCatchesUp() {
        Task task = task(4);
        task.addRecords(A, records(A, 0, 1, 2, 3, 4, 5, 6));
        assertThat(consumer.paused()).containsExactly(A);
        task.process(3, RETHROW);
        assertThat(consumer.paused()).containsExactly(A);
        task.process(10, RETHROW);
        assertThat(consumer.paused()).isEmpty();
        assertThat(task.hasBuffered()).isFalse();
    }

    @Test
    void commitTakesTheNextOffsetAndAbortRewindsToTheLastCommit() {
        Task task = task(100);
        task.addRecords(A, records(A, 5, 1, 2, 3));
        task.process(2, RETHROW);
        assertThat(task.committableOffsets()).isEqualTo(Map.of(A, new OffsetAndMetadata(7)));
        task.onCommitted();
        assertThat(task.committableOffsets()).isEmpty();

        task.process(1, RETHROW);
        task.addRecords(A, records(A, 8, 4));
        task.onAborted();
        assertThat(consumer.position(A)).isEqualTo(7);
        assertThat(task.hasBuffered()).isFalse();
        assertThat(task.committableOffsets()).isEmpty();
    }

    @Test
    void abortBeforeTheFirstCommitRewindsToTheFirstFetchedRecord() {
        Task task = task(100);
        task.addRecords(B, records(B, 42, 1, 2));
        task.process(1, RETHROW);
        task.onAborted();
        assertThat(consumer.position(B)).isEqualTo(42);
    }
}
