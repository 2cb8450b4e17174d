package io.weir.sink.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.weir.sink.DeliveryGuarantee;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.kafka.clients.consumer.MockConsumer;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.clients.producer.MockProducer;
import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.ProducerFencedException;
import org.apache.kafka.common.errors.TimeoutException;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.junit.jupiter.api.Test;

class TransactionalSinkTest {

    private static final TopicPartition IN = new TopicPartition("in", 0);

    private final List<MockProducer<byte[], byte[]>> producers = new ArrayList<>();
    private final MockConsumer<byte[], byte[]> consumer = new MockConsumer<>("earliest");
    private final AtomicInteger aborts = new AtomicInteger();
    private final CommitObserver observer = new CommitObserver() {
        @Override
        public void committed(long nanos) {
        }

        @Override
        public void aborted(String reason) {
            aborts.incrementAndGet();
        }
    };

    /** Records the order of the protocol's calls. */
    static final class RecordingUnit implements CommitUnit {
        final List<String> calls = new ArrayList<>();
        Map<TopicPartition, OffsetAndMetadata> offsets = Map.of(IN, new OffsetAndMetadata(10));

        @Override
        public void completeInFlight() {
            calls.add("complete");
        }

        @Override
        public void sendPendingChangelog() {
            calls.add("changelog");
        }

        @Override
        public Map<TopicPartition, OffsetAndMetadata> committableOffsets() {
            calls.add("offsets");
            return offsets;
        }

        @Override
        public void onCommitted() {
            calls.add("committed");
        }

        @Override
        public void onAborted() {
            calls.add("aborted");
        }
    }

    private TransactionalSink sink(DeliveryGuarantee guarantee, Duration retry) {
        consumer.assign(List.of(IN));
        return new TransactionalSink(guarantee, () -> {
            MockProducer<byte[], byte[]> p = new MockProducer<>(true, null, new ByteArraySerializer(), new ByteArraySerializer());
            producers.add(p);
            return (Producer<byte[], byte[]>) p;
        }, consumer, observer, retry);
    }

    private static ProducerRecord<byte[], byte[]> record() {
        return new ProducerRecord<>("out", new byte[] {1}, new byte[] {2});
    }

    @Test
    void aProducerWhoseTransactionsAreRefusedIsClosedNotLeaked() {
        consumer.assign(List.of(IN));
        MockProducer<byte[], byte[]> refused = new MockProducer<>(true, null, new ByteArraySerializer(),
                new ByteArraySerializer());
        refused.initTransactionException = new org.apache.kafka.common.errors.TransactionalIdAuthorizationException(
                "Transactional Id authorization failed.");
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> new TransactionalSink(DeliveryGuarantee.EXACTLY_ONCE,
                        () -> refused, consumer, observer, Duration.ofSeconds(1)))
                .isInstanceOf(org.apache.kafka.common.errors.TransactionalIdAuthorizationException.class);
        assertThat(refused.closed()).isTrue();
    }

    @Test
    void commitsOutputsAndOffsetsInOneTransactionInTheDesignedOrder() {
        TransactionalSink sink = sink(DeliveryGuarantee.EXACTLY_ONCE, Duration.ofSeconds(1));
        MockProducer<byte[], byte[]> producer = producers.get(0);
        assertThat(producer.transactionInitialized()).isTrue();
        sink.send(record());
        sink.send(record());
        assertThat(producer.transactionInFlight()).isTrue();
        RecordingUnit unit = new RecordingUnit();

        assertThat(sink.commit(List.of(unit))).isTrue();

        assertThat(unit.calls).containsExactly("complete", "offsets", "changelog", "committed");
        assertThat(producer.transactionCommitted()).isTrue();
        assertThat(producer.history()).hasSize(2);
        assertThat(producer.consumerGroupOffsetsHistory()).hasSize(1);
        assertThat(producer.consumerGroupOffsetsHistory().get(0).values().iterator().next())
                .containsEntry(IN, new OffsetAndMetadata(10));
        assertThat(sink.inTransaction()).isFalse();
    }

    @Test
    void commitWithNothingToCommitDoesNotOpenATransaction() {
        TransactionalSink sink = sink(DeliveryGuarantee.EXACTLY_ONCE, Duration.ofSeconds(1));
        RecordingUnit unit = new RecordingUnit();
        unit.offsets = Map.of();
        assertThat(sink.commit(List.of(unit))).isFalse();
        assertThat(producers.get(0).transactionInFlight()).isFalse();
        assertThat(producers.get(0).transactionCommitted()).isFalse();
    }

    @Test
    void fencedCommitAbortsTheUnitsAndTheProducerIsReplaced() {
        TransactionalSink sink = sink(DeliveryGuarantee.EXACTLY_ONCE, Duration.ofSeconds(1));
        sink.send(record());
        producers.get(0).commitTransactionException = new ProducerFencedException("fenced");
        RecordingUnit unit = new RecordingUnit();

        assertThatThrownBy(() -> sink.commit(List.of(unit)))
                .isInstanceOfSatisfying(TaskMigratedException.class, e -> assertThat(e.producerFenced()).isTrue());
        assertThat(unit.calls).endsWith("aborted").doesNotContain("committed");
        assertThat(aborts).hasValue(1);

        sink.replaceProducerIfFenced();
        assertThat(producers).hasSize(2);
        assertThat(producers.get(0).closed()).isTrue();
        assertThat(producers.get(1).transactionInitialized()).isTrue();
    }

    @Test
    void otherCommitErrorsAbortTheTransactionAndKeepTheProducer() {
        TransactionalSink sink = sink(DeliveryGuarantee.EXACTLY_ONCE, Duration.ofSeconds(1));
        sink.send(record());
        producers.get(0).sendOffsetsToTransactionException = new KafkaException("broker trouble");
        RecordingUnit unit = new RecordingUnit();

        assertThatThrownBy(() -> sink.commit(List.of(unit))).isInstanceOf(CommitAbortedException.class);
        assertThat(producers.get(0).transactionAborted()).isTrue();
        assertThat(unit.calls).endsWith("aborted");
        sink.replaceProducerIfFenced();
        assertThat(producers).hasSize(1);
    }

    @Test
    void aCommitThatKeepsTimingOutReplacesTheProducer() {
        TransactionalSink sink = sink(DeliveryGuarantee.EXACTLY_ONCE, Duration.ZERO);
        sink.send(record());
        producers.get(0).commitTransactionException = new TimeoutException("slow");
        assertThatThrownBy(() -> sink.commit(List.of(new RecordingUnit())))
                .isInstanceOfSatisfying(TaskMigratedException.class, e -> assertThat(e.producerFenced()).isTrue());
        sink.replaceProducerIfFenced();
        assertThat(producers).hasSize(2);
    }

    @Test
    void abortDiscardsTheOpenTransaction() {
        TransactionalSink sink = sink(DeliveryGuarantee.EXACTLY_ONCE, Duration.ofSeconds(1));
        sink.send(record());
        RecordingUnit unit = new RecordingUnit();
        sink.abort(List.of(unit), "test");
        assertThat(producers.get(0).transactionAborted()).isTrue();
        assertThat(unit.calls).containsExactly("aborted");
        assertThat(sink.inTransaction()).isFalse();
    }

    @Test
    void atLeastOnceFlushesThenCommitsOffsetsThroughTheConsumer() {
        TransactionalSink sink = sink(DeliveryGuarantee.AT_LEAST_ONCE, Duration.ofSeconds(1));
        sink.send(record());
        sink.commit(List.of(new RecordingUnit()));
        assertThat(producers.get(0).flushed()).isTrue();
        assertThat(producers.get(0).transactionInitialized()).isFalse();
        assertThat(consumer.committed(Set.of(IN))).containsEntry(IN, new OffsetAndMetadata(10));
    }

    @Test
    void atMostOnceCommitsPositionsBeforeProcessing() {
        TransactionalSink sink = sink(DeliveryGuarantee.AT_MOST_ONCE, Duration.ofSeconds(1));
        sink.afterPoll(Map.of(IN, new OffsetAndMetadata(5)));
        assertThat(consumer.committed(Set.of(IN))).containsEntry(IN, new OffsetAndMetadata(5));
        RecordingUnit unit = new RecordingUnit();
        sink.commit(List.of(unit));
        assertThat(consumer.committed(Set.of(IN))).containsEntry(IN, new OffsetAndMetadata(5));
    }
}
