package io.weir.internal.bounded;

import static org.assertj.core.api.Assertions.assertThat;

import io.weir.processor.TaskId;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.Test;

/** The end conditions of a bounded run, without a broker. */
class BoundedRunTest {

    private static final TopicPartition IN0 = new TopicPartition("in", 0);
    private static final TopicPartition IN1 = new TopicPartition("in", 1);
    private static final TopicPartition REP0 = new TopicPartition("app-rep", 0);
    private static final TopicPartition REP1 = new TopicPartition("app-rep", 1);
    private static final TaskId UP0 = new TaskId(0, 0);
    private static final TaskId UP1 = new TaskId(0, 1);
    private static final TaskId DOWN0 = new TaskId(1, 0);
    private static final TaskId DOWN1 = new TaskId(1, 1);

    private final AtomicInteger lookups = new AtomicInteger();

    /** Sub-topology 0 reads "in" and writes "app-rep"; sub-topology 1 reads "app-rep". */
    private BoundedRun twoStages() {
        return new BoundedRun(
                new BoundedRun.Plan(
                        Map.of(IN0, 10L, IN1, 0L),
                        Map.of(0, Set.of(UP0, UP1), 1, Set.of(DOWN0, DOWN1)),
                        Map.of("app-rep", Set.of(0)),
                        Long.MAX_VALUE),
                topic -> {
                    lookups.incrementAndGet();
                    return Map.of(REP0, 7L, REP1, 3L);
                });
    }

    @Test
    void inputEndsAreKnownAtStartAndARepartitionEndOnlyOnceEveryWriterIsDone() {
        BoundedRun run = twoStages();
        assertThat(run.endOffset(IN0)).isEqualTo(10L);
        assertThat(run.endOffset(REP0)).isNull();
        run.done(UP0, 0);
        assertThat(run.endOffset(REP0)).as("one writer task is still running").isNull();
        assertThat(lookups).hasValue(0);
        run.done(UP1, 0);
        assertThat(run.endOffset(REP0)).isEqualTo(7L);
        assertThat(run.endOffset(REP1)).isEqualTo(3L);
        assertThat(lookups).as("read once per topic").hasValue(1);
        assertThat(run.knownEnd(REP1)).isEqualTo(3L);
    }

    @Test
    void aTopicUnknownAtStartEndsWhereItIs() {
        assertThat(twoStages().endOffset(new TopicPartition("created-later", 0)))
                .isZero();
    }

    @Test
    void theRunIsCompleteWhenEveryTaskIsDoneOnceAndCountsCommittedWork() {
        BoundedRun run = twoStages();
        run.counted(IN0, 10);
        run.counted(REP0, 4);
        run.counted(REP1, 6);
        run.done(UP0, 2);
        run.done(UP0, 2); // reported again by a thread that took the task over: counted once
        run.done(UP1, 0);
        run.done(DOWN0, 5);
        assertThat(run.isComplete()).isFalse();
        run.done(DOWN1, 1);
        assertThat(run.isComplete()).isTrue();
        assertThat(run.inputRecords()).isEqualTo(10);
        assertThat(run.repartitionRecords()).isEqualTo(10);
        assertThat(run.sentAtEnd()).isEqualTo(8);
        run.endOffset(REP0);
        assertThat(run.endOffsets()).containsEntry("in", List.of(10L, 0L)).containsEntry("app-rep", List.of(7L, 3L));
    }

    @Test
    void aTopologyWithoutTasksIsCompleteAtOnce() {
        BoundedRun run = new BoundedRun(
                new BoundedRun.Plan(Map.of(), Map.of(0, Set.of()), Map.of(), Long.MAX_VALUE), t -> Map.of());
        assertThat(run.isComplete()).isTrue();
    }

    @Test
    void recordsAtOrPastTheEndAreDropped() {
        List<ConsumerRecord<byte[], byte[]>> records = new ArrayList<>();
        for (long offset : new long[] {3, 4, 6, 7}) { // 5: a transaction marker
            records.add(new ConsumerRecord<>("in", 0, offset, null, null));
        }
        assertThat(BoundedRun.before(records, 8)).isSameAs(records);
        assertThat(BoundedRun.before(records, 6))
                .extracting(ConsumerRecord::offset)
                .containsExactly(3L, 4L);
        assertThat(BoundedRun.before(records, 5))
                .extracting(ConsumerRecord::offset)
                .containsExactly(3L, 4L);
        assertThat(BoundedRun.before(records, 3)).isEmpty();
    }
}
