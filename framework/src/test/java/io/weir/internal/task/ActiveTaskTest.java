package io.weir.internal.task;

import static io.weir.internal.task.PolledRecords.records;
import static org.assertj.core.api.Assertions.assertThat;

import io.weir.internal.state.TaskStores;
import io.weir.internal.time.EventTimeProcessor;
import io.weir.internal.time.WatermarkBroadcast;
import io.weir.internal.time.Watermarks;
import io.weir.internal.topology.NodeSpec;
import io.weir.processor.Processor;
import io.weir.processor.Record;
import io.weir.processor.TaskId;
import io.weir.serde.Serdes;
import io.weir.time.Timestamps;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.kafka.clients.consumer.MockConsumer;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.Test;

class ActiveTaskTest {

    private static final TopicPartition A = new TopicPartition("a", 0);
    private static final TopicPartition B = new TopicPartition("b", 0);

    private static final long IDLE_MS = 1_000;

    private final MockConsumer<byte[], byte[]> consumer = new MockConsumer<>("earliest");
    private final List<String> seen = new ArrayList<>();
    /** Watermarks the processor was told about, in order. */
    private final List<Long> watermarks = new ArrayList<>();

    private final AtomicLong clock = new AtomicLong(1_000_000);

    /** Records values, and the watermarks it is told of. */
    private final class Collect implements Processor<Object, Object, Object, Object>, EventTimeProcessor {
        @Override
        public void process(Record<Object, Object> r) {
            seen.add((String) r.value());
        }

        @Override
        public void onWatermark(long watermark) {
            watermarks.add(watermark);
        }
    }

    private ActiveTask task(int maxBuffered) {
        return task(maxBuffered, 0);
    }

    private ActiveTask task(int maxBuffered, long outOfOrderness) {
        return task(maxBuffered, outOfOrderness, Timestamps.recordTime());
    }

    private ActiveTask task(
            int maxBuffered, long outOfOrderness, io.weir.time.TimestampExtractor<Object, Object> times) {
        if (consumer.assignment().isEmpty()) {
            consumer.assign(List.of(A, B)); // assigning again would forget the mock's commits
        }
        SourceNode source = new SourceNode(
                new NodeSpec.Source("src", List.of("a", "b"), null, Serdes.strings(), Serdes.strings(), false, null),
                times,
                clock::get);
        TaskContext ctx = new TaskContext(
                new TaskId(0, 0),
                "app",
                clock::get,
                new Watermarks(outOfOrderness, IDLE_MS),
                new LateRecords(null, null, null));
        ProcessorNode sink = new ProcessorNode("collect", new Collect(), ctx, Map.of());
        source.children = new Node[] {sink};
        ActiveTask task = new ActiveTask(
                ctx.id(),
                ctx,
                List.of(source, sink),
                topic -> source,
                consumer,
                new DeadLetters("dlq", null, null),
                maxBuffered,
                TaskStores.none(),
                null,
                new WatermarkBroadcast(ctx.id(), List.of(), null));
        task.addPartition(A);
        task.addPartition(B);
        return task;
    }

    private static final RecordFailureHandler RETHROW = f -> {
        throw new AssertionError("unexpected failure", f.error());
    };

    @Test
    void recordsOfSeveralPartitionsAreProcessedInTimestampOrder() {
        ActiveTask task = task(100);
        task.addRecords(A, records(A, 0, 10, 30, 50));
        task.addRecords(B, records(B, 0, 20, 40));
        task.process(100, Long.MAX_VALUE, RETHROW);
        assertThat(seen).containsExactly("a0", "b0", "a1", "b1", "a2");
    }

    @Test
    void partitionsAreInterleavedByTheExtractedTimeNotTheKafkaTimestamp() {
        // Event time from the value: b's records happened first, though their Kafka timestamps are later.
        Map<String, Long> eventTimes = Map.of("a0", 30L, "a1", 40L, "b0", 10L, "b1", 20L);
        ActiveTask task = task(100, 0, (k, v, ts) -> eventTimes.get((String) v));
        task.addRecords(A, records(A, 0, 1, 2));
        task.addRecords(B, records(B, 0, 100, 200));
        task.process(100, Long.MAX_VALUE, RETHROW);
        assertThat(seen).containsExactly("b0", "b1", "a0", "a1");
    }

    @Test
    void aRecordThatCannotBeTimedIsOrderedByItsKafkaTimestampAndFailsWhenProcessed() {
        ActiveTask task = task(100, 0, (k, v, ts) -> {
            if (v.equals("b0")) {
                throw new IllegalStateException("no time in " + v);
            }
            return ts;
        });
        List<Stage> stages = new ArrayList<>();
        task.addRecords(A, records(A, 0, 10, 30));
        task.addRecords(B, records(B, 0, 20));
        task.process(100, Long.MAX_VALUE, f -> stages.add(f.stage()));
        assertThat(seen).containsExactly("a0", "a1");
        assertThat(stages).containsExactly(Stage.TIMESTAMP);
    }

    @Test
    void aBatchEndsOnceItsTimeIsUpSoTheCommitIsNotHeldBack() {
        ActiveTask task = task(100);
        task.addRecords(A, records(A, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19));
        assertThat(task.process(100, 0, RETHROW))
                .as("time is looked at every 8 records")
                .isEqualTo(8);
        assertThat(task.hasBuffered()).isTrue();
        task.process(100, Long.MAX_VALUE, RETHROW);
        assertThat(task.hasBuffered()).isFalse();
    }

    @Test
    void aFullPartitionIsPausedUntilTheTaskCatchesUp() {
        ActiveTask task = task(4);
        task.addRecords(A, records(A, 0, 1, 2, 3, 4, 5, 6));
        assertThat(consumer.paused()).containsExactly(A);
        task.process(3, Long.MAX_VALUE, RETHROW);
        assertThat(consumer.paused()).containsExactly(A);
        task.process(10, Long.MAX_VALUE, RETHROW);
        assertThat(consumer.paused()).isEmpty();
        assertThat(task.hasBuffered()).isFalse();
    }

    @Test
    void commitTakesTheNextOffsetAndAbortRewindsToTheLastCommit() {
        ActiveTask task = task(100);
        task.addRecords(A, records(A, 5, 1, 2, 3));
        task.process(2, Long.MAX_VALUE, RETHROW);
        assertThat(task.committableOffsets())
                .isEqualTo(Map.of(A, new OffsetAndMetadata(7, "weir1:" + Long.MIN_VALUE + ":2")));
        task.committed();
        assertThat(task.committableOffsets()).isEmpty();

        task.process(1, Long.MAX_VALUE, RETHROW);
        task.addRecords(A, records(A, 8, 4));
        task.aborted();
        assertThat(consumer.position(A)).isEqualTo(7);
        assertThat(task.hasBuffered()).isFalse();
        assertThat(task.committableOffsets()).isEmpty();
    }

    @Test
    void abortBeforeTheFirstCommitRewindsToTheFirstFetchedRecord() {
        ActiveTask task = task(100);
        task.addRecords(B, records(B, 42, 1, 2));
        task.process(1, Long.MAX_VALUE, RETHROW);
        task.aborted();
        assertThat(consumer.position(B)).isEqualTo(42);
    }

    @Test
    void theWatermarkIsTheSmallestLargestTimeOverPartitionsMinusTheOutOfOrderness() {
        ActiveTask task = task(100, 5);
        task.addRecords(A, records(A, 0, 100, 90, 120));
        task.addRecords(B, records(B, 0, 110));
        task.process(100, Long.MAX_VALUE, RETHROW);
        // A reached 120, B 110: B holds it back, minus 5 of out-of-orderness.
        assertThat(task.watermark()).isEqualTo(105);
        assertThat(watermarks).isSorted().last().isEqualTo(105L);
    }

    @Test
    void aSilentPartitionHoldsTheWatermarkBackUntilItIsIdle() {
        ActiveTask task = task(100);
        task.addRecords(A, records(A, 0, 100, 200));
        task.process(100, Long.MAX_VALUE, RETHROW);
        assertThat(task.watermark()).as("B has delivered nothing yet").isEqualTo(Long.MIN_VALUE);
        assertThat(watermarks).isEmpty();

        clock.addAndGet(IDLE_MS - 1);
        task.punctuate(clock.get());
        assertThat(task.watermark()).isEqualTo(Long.MIN_VALUE);

        clock.addAndGet(1);
        task.punctuate(clock.get());
        assertThat(task.watermark()).as("B is idle now").isEqualTo(200);
        assertThat(watermarks).containsExactly(200L);

        // B delivers again: it is active, but the watermark never goes back.
        task.addRecords(B, records(B, 0, 150));
        task.process(100, Long.MAX_VALUE, RETHROW);
        assertThat(task.watermark()).isEqualTo(200);
        task.addRecords(A, records(A, 2, 300));
        task.addRecords(B, records(B, 1, 250));
        task.process(100, Long.MAX_VALUE, RETHROW);
        assertThat(task.watermark()).isEqualTo(250);
    }

    @Test
    void theWatermarkIsCommittedInOffsetMetadataAndResumedFromIt() {
        ActiveTask task = task(100);
        task.addRecords(A, records(A, 0, 100, 300));
        task.addRecords(B, records(B, 0, 200));
        task.process(100, Long.MAX_VALUE, RETHROW);
        assertThat(task.watermark()).isEqualTo(200);
        Map<TopicPartition, OffsetAndMetadata> offsets = task.committableOffsets();
        assertThat(offsets.get(A)).isEqualTo(new OffsetAndMetadata(2, "weir1:200:300"));
        assertThat(offsets.get(B)).isEqualTo(new OffsetAndMetadata(1, "weir1:200:200"));
        consumer.commitSync(offsets);
        task.committed();

        // A new task over the same partitions (after a restart) resumes the times.
        seen.clear();
        watermarks.clear();
        ActiveTask restarted = task(100);
        restarted.addRecords(A, records(A, 2, 150));
        restarted.process(100, Long.MAX_VALUE, RETHROW);
        assertThat(restarted.watermark()).isEqualTo(200);
        restarted.addRecords(B, records(B, 1, 260));
        restarted.addRecords(A, records(A, 3, 400));
        restarted.process(100, Long.MAX_VALUE, RETHROW);
        assertThat(restarted.watermark()).isEqualTo(260);
    }

    @Test
    void aWatermarkMovedByIdlenessAloneIsCommittedAtTheUnchangedOffsets() {
        ActiveTask task = task(100);
        task.addRecords(A, records(A, 7, 100));
        task.process(100, Long.MAX_VALUE, RETHROW);
        task.committed();
        assertThat(task.committableOffsets()).isEmpty();
        clock.addAndGet(IDLE_MS);
        task.punctuate(clock.get());
        assertThat(task.watermark()).isEqualTo(100);
        assertThat(task.committableOffsets())
                .containsEntry(A, new OffsetAndMetadata(8, "weir1:100:100"))
                .doesNotContainKey(B);
    }

    @Test
    void anAbortTakesTheWatermarkBackToItsCommittedValueAndTheReplayAdvancesItAgain() {
        ActiveTask task = task(100);
        task.addRecords(A, records(A, 0, 100));
        task.addRecords(B, records(B, 0, 100));
        task.process(100, Long.MAX_VALUE, RETHROW);
        task.committed();
        task.addRecords(A, records(A, 1, 300));
        task.addRecords(B, records(B, 1, 300));
        task.process(100, Long.MAX_VALUE, RETHROW);
        assertThat(task.watermark()).isEqualTo(300);
        task.aborted();
        assertThat(task.watermark()).isEqualTo(100);
        task.addRecords(A, records(A, 1, 300));
        task.addRecords(B, records(B, 1, 300));
        task.process(100, Long.MAX_VALUE, RETHROW);
        assertThat(watermarks).containsExactly(100L, 300L, 300L);
    }

    @Test
    void aNegativeTimestampFailsTheRecordAtTheTimestampStage() {
        ActiveTask task = task(100);
        List<Stage> stages = new ArrayList<>();
        task.addRecords(A, records(A, 0, -1, 5));
        task.process(100, Long.MAX_VALUE, f -> stages.add(f.stage()));
        assertThat(stages).containsExactly(Stage.TIMESTAMP);
        assertThat(seen).containsExactly("a1");
    }
}
