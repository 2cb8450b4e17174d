package io.weir.internal.commit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.weir.sink.DeliveryGuarantee;
import io.weir.sink.internal.CommitAbortedException;
import io.weir.sink.internal.TaskMigratedException;
import io.weir.sink.internal.TransactionalSink;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.kafka.clients.consumer.MockConsumer;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.clients.producer.MockProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.ProducerFencedException;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.junit.jupiter.api.Test;

class CommitterTest {

    private static final TopicPartition IN = new TopicPartition("in", 0);

    private final MockProducer<byte[], byte[]> producer =
            new MockProducer<>(true, null, new ByteArraySerializer(), new ByteArraySerializer());
    private final MockConsumer<byte[], byte[]> consumer = new MockConsumer<>("earliest");
    private final List<String> calls = new ArrayList<>();
    private final AtomicInteger aborts = new AtomicInteger();
    private final AtomicInteger commits = new AtomicInteger();
    private final Committer committer;

    CommitterTest() {
        consumer.assign(List.of(IN));
        TransactionalSink sink =
                new TransactionalSink(DeliveryGuarantee.EXACTLY_ONCE, () -> producer, consumer, Duration.ofSeconds(1));
        committer = new Committer(sink, new CommitObserver() {
            @Override
            public void committed(long nanos) {
                commits.incrementAndGet();
            }

            @Override
            public void aborted(String reason) {
                aborts.incrementAndGet();
            }
        });
    }

    /** A task that records its calls and writes into the open transaction as a task does. */
    private final class RecordingUnit implements CommitUnit {
        private final String name;
        Map<TopicPartition, OffsetAndMetadata> offsets = Map.of(IN, new OffsetAndMetadata(10));

        RecordingUnit(String name) {
            this.name = name;
        }

        @Override
        public void finishInFlight() {
            calls.add(name + ":finish");
        }

        @Override
        public void writePendingChangelog() {
            calls.add(name + ":changelog");
            committer.transaction().send(new ProducerRecord<>(name + "-changelog", new byte[] {1}, new byte[] {2}));
        }

        @Override
        public void writeNextOffsets() {
            calls.add(name + ":offsets");
            committer.transaction().commitOffsets(offsets);
        }

        @Override
        public void committed() {
            calls.add(name + ":committed");
        }

        @Override
        public void aborted() {
            calls.add(name + ":aborted");
        }
    }

    /** The offsets the one transaction that sent offsets committed (asserting there was one). */
    private Map<TopicPartition, OffsetAndMetadata> offsetsOfTheOnlyTransaction() {
        assertThat(producer.consumerGroupOffsetsHistory()).hasSize(1);
        return producer.consumerGroupOffsetsHistory().get(0).values().iterator().next();
    }

    @Test
    void everyStepRunsForAllUnitsBeforeTheNextInTheDesignedOrder() {
        RecordingUnit a = new RecordingUnit("a");
        RecordingUnit b = new RecordingUnit("b");
        b.offsets = Map.of(new TopicPartition("in", 1), new OffsetAndMetadata(20));

        assertThat(committer.commit(List.of(a, b))).isTrue();

        assertThat(calls)
                .containsExactly(
                        "a:finish",
                        "b:finish",
                        "a:changelog",
                        "b:changelog",
                        "a:offsets",
                        "b:offsets",
                        "a:committed",
                        "b:committed");
        assertThat(producer.transactionCommitted()).isTrue();
        assertThat(producer.history()).extracting(ProducerRecord::topic).containsExactly("a-changelog", "b-changelog");
        assertThat(offsetsOfTheOnlyTransaction())
                .containsEntry(IN, new OffsetAndMetadata(10))
                .containsEntry(new TopicPartition("in", 1), new OffsetAndMetadata(20));
        assertThat(commits).hasValue(1);
    }

    @Test
    void nothingSentAndNoOffsetMovedCommitsNothing() {
        CommitUnit idle = new CommitUnit() {
            @Override
            public void finishInFlight() {}

            @Override
            public void writePendingChangelog() {}

            @Override
            public void writeNextOffsets() {}

            @Override
            public void committed() {
                calls.add("committed");
            }

            @Override
            public void aborted() {}
        };

        assertThat(committer.commit(List.of(idle))).isFalse();

        assertThat(calls).isEmpty();
        assertThat(producer.transactionInFlight()).isFalse();
        assertThat(producer.transactionCommitted()).isFalse();
    }

    @Test
    void aFencedCommitCommitsNothingAndItsAbortRewindsEveryUnitOnce() {
        producer.commitTransactionException = new ProducerFencedException("fenced");
        RecordingUnit a = new RecordingUnit("a");
        RecordingUnit b = new RecordingUnit("b");

        assertThatThrownBy(() -> committer.commit(List.of(a, b))).isInstanceOf(TaskMigratedException.class);
        assertThat(calls).noneMatch(c -> c.endsWith(":committed"));
        committer.abort(List.of(a, b), "fenced");

        assertThat(calls).filteredOn(c -> c.endsWith(":aborted")).containsExactly("a:aborted", "b:aborted");
        assertThat(aborts).hasValue(1);
        assertThat(commits).hasValue(0);
    }

    @Test
    void afterAnAbortedCommitTheNextTransactionCommitsTheNewOffsets() {
        producer.sendOffsetsToTransactionException = new KafkaException("broker trouble");
        RecordingUnit a = new RecordingUnit("a");
        assertThatThrownBy(() -> committer.commit(List.of(a))).isInstanceOf(CommitAbortedException.class);
        committer.abort(List.of(a), "broker trouble");
        assertThat(producer.transactionAborted()).isTrue();

        producer.sendOffsetsToTransactionException = null;
        a.offsets = Map.of(IN, new OffsetAndMetadata(11));
        assertThat(committer.commit(List.of(a))).isTrue();

        assertThat(producer.transactionCommitted()).isTrue();
        assertThat(offsetsOfTheOnlyTransaction()).containsExactly(Map.entry(IN, new OffsetAndMetadata(11)));
        assertThat(calls).containsSubsequence("a:aborted", "a:finish", "a:committed");
    }
}
