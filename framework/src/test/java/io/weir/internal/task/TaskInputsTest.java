package io.weir.internal.task;

import static io.weir.internal.task.PolledRecords.records;
import static org.assertj.core.api.Assertions.assertThat;

import io.weir.internal.topology.NodeSpec;
import io.weir.serde.Serdes;
import io.weir.time.Timestamps;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.MockConsumer;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.Test;

class TaskInputsTest {

    private static final TopicPartition A = new TopicPartition("a", 0);
    private static final TopicPartition B = new TopicPartition("b", 0);
    private static final int MAX_BUFFERED = 4;

    private final MockConsumer<byte[], byte[]> consumer = new MockConsumer<>("earliest");
    private final SourceNode source = new SourceNode(
            new NodeSpec.Source("src", List.of("a", "b"), null, Serdes.strings(), Serdes.strings(), false, null),
            Timestamps.recordTime(),
            () -> 0L);
    private final TaskInputs inputs = new TaskInputs(consumer, MAX_BUFFERED);

    TaskInputsTest() {
        consumer.assign(List.of(A, B));
    }

    private List<String> takeAll() {
        List<String> taken = new ArrayList<>();
        while (inputs.hasBuffered()) {
            PartitionState p = inputs.next();
            ConsumerRecord<byte[], byte[]> r = inputs.take(p);
            p.takeHead();
            taken.add(new String(r.value(), StandardCharsets.UTF_8));
        }
        return taken;
    }

    @Test
    void theNextRecordIsTheOldestAcrossPartitions() {
        inputs.add(A, source, 0);
        inputs.add(B, source, 0);
        inputs.addRecords(A, records(A, 0, 10, 30), 0);
        inputs.addRecords(B, records(B, 5, 20, 25, 40), 0);

        assertThat(takeAll()).containsExactly("a0", "b5", "b6", "a1", "b7");
        assertThat(inputs.drained(A)).isTrue();
    }

    @Test
    void aFullPartitionIsPausedUntilHalfOfItsBufferIsTaken() {
        inputs.add(A, source, 0);
        inputs.addRecords(A, records(A, 0, 1, 2, 3, 4), 0);
        assertThat(consumer.paused()).containsExactly(A);

        inputs.take(inputs.next());
        inputs.resumeDrained();
        assertThat(consumer.paused()).containsExactly(A); // three left: more than half

        inputs.take(inputs.next());
        inputs.resumeDrained();
        assertThat(consumer.paused()).isEmpty();
    }

    @Test
    void whileRestoringEveryPartitionStaysPausedAndOnlyThoseNotFullResumeAfter() {
        inputs.add(A, source, 0);
        inputs.startRestoring();
        inputs.add(B, source, 0); // joins during the restore: paused too
        inputs.addRecords(A, records(A, 0, 1, 2, 3, 4), 0);
        assertThat(consumer.paused()).containsExactlyInAnyOrder(A, B);
        assertThat(inputs.isRestoring()).isTrue();

        inputs.finishRestoring(1_000);

        assertThat(inputs.isRestoring()).isFalse();
        assertThat(consumer.paused()).containsExactly(A); // its buffer is still full
        assertThat(inputs.states())
                .allSatisfy(p -> assertThat(p.time.lastActiveMs()).isEqualTo(1_000));
    }

    @Test
    void aRewindDropsTheBufferAndGoesBackToTheCommittedOffsetOrTheFirstFetchedOne() {
        PartitionState a = inputs.add(A, source, 0);
        inputs.add(B, source, 0);
        a.committed = 3;
        inputs.addRecords(A, records(A, 3, 1, 2, 3, 4), 0);
        inputs.addRecords(B, records(B, 7, 5), 0);
        inputs.take(inputs.next());
        a.nextToProcess = 4;
        a.takenSinceCommit = 1;

        inputs.rewind();

        assertThat(inputs.hasBuffered()).isFalse();
        assertThat(consumer.position(A)).isEqualTo(3);
        assertThat(consumer.position(B)).isEqualTo(7);
        assertThat(consumer.paused()).isEmpty();
        assertThat(a.nextToProcess).isEqualTo(3);
        assertThat(a.takenSinceCommit).isZero();
    }
}
