package io.weir.sink.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.weir.sink.DeliveryGuarantee;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
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

/**
 * The sink's steps against Kafka's mock clients: what each guarantee sends and commits, and how
 * failures are classified (the order of the steps over tasks is {@code CommitterTest}'s, in the
 * framework).
 */
class TransactionalSinkTest {

    private static final TopicPartition IN = new TopicPartition("in", 0);
    private static final Map<TopicPartition, OffsetAndMetadata> OFFSETS = Map.of(IN, new OffsetAndMetadata(10));

    private final List<MockProducer<byte[], byte[]>> producers = new ArrayList<>();
    private final MockConsumer<byte[], byte[]> consumer = new MockConsumer<>("earliest");

    private TransactionalSink sink(DeliveryGuarantee guarantee, Duration retry) {
        consumer.assign(List.of(IN));
        return new TransactionalSink(
                guarantee,
                () -> {
                    MockProducer<byte[], byte[]> p =
                            new MockProducer<>(true, null, new ByteArraySerializer(), new ByteArraySerializer());
                    producers.add(p);
                    return (Producer<byte[], byte[]>) p;
                },
                consumer,
                retry);
    }

    private static ProducerRecord<byte[], byte[]> record() {
        return new ProducerRecord<>("out", new byte[] {1}, new byte[] {2});
    }

    /** Steps 2 to 4. */
    private static void commit(TransactionalSink sink) {
        sink.flush();
        sink.sendOffsets(OFFSETS);
        sink.commitTransaction();
    }

    @Test
    void aProducerWhoseTransactionsAreRefusedIsClosedNotLeaked() {
        consumer.assign(List.of(IN));
        MockProducer<byte[], byte[]> refused =
                new MockProducer<>(true, null, new ByteArraySerializer(), new ByteArraySerializer());
        refused.initTransactionException = new org.apache.kafka.common.errors.TransactionalIdAuthorizationException(
                "Transactional Id authorization failed.");
        assertThatThrownBy(() -> new TransactionalSink(
                        DeliveryGuarantee.EXACTLY_ONCE, () -> refused, consumer, Duration.ofSeconds(1)))
                .isInstanceOf(org.apache.kafka.common.errors.TransactionalIdAuthorizationException.class);
        assertThat(refused.closed()).isTrue();
    }

    /** The offsets the one transaction of {@code producer} that sent offsets committed (asserting there was one). */
    private static Map<TopicPartition, OffsetAndMetadata> offsetsOfTheOnlyTransaction(
            MockProducer<byte[], byte[]> producer) {
        assertThat(producer.consumerGroupOffsetsHistory()).hasSize(1);
        return producer.consumerGroupOffsetsHistory().get(0).values().iterator().next();
    }

    @Test
    void outputsAndOffsetsAreCommittedInOneTransaction() {
        TransactionalSink sink = sink(DeliveryGuarantee.EXACTLY_ONCE, Duration.ofSeconds(1));
        MockProducer<byte[], byte[]> producer = producers.get(0);
        assertThat(producer.transactionInitialized()).isTrue();
        sink.send(record());
        sink.send(record());
        assertThat(producer.transactionInFlight()).isTrue();

        commit(sink);

        assertThat(producer.transactionCommitted()).isTrue();
        assertThat(producer.history()).hasSize(2);
        assertThat(offsetsOfTheOnlyTransaction(producer)).containsEntry(IN, new OffsetAndMetadata(10));
        assertThat(sink.inTransaction()).isFalse();
    }

    @Test
    void offsetsAloneOpenTheirOwnTransaction() {
        TransactionalSink sink = sink(DeliveryGuarantee.EXACTLY_ONCE, Duration.ofSeconds(1));
        assertThat(sink.inTransaction()).isFalse();
        commit(sink);
        assertThat(producers.get(0).transactionCommitted()).isTrue();
        assertThat(producers.get(0).consumerGroupOffsetsHistory()).hasSize(1);
    }

    @Test
    void aFencedCommitIsAMigrationAndTheProducerIsReplaced() {
        TransactionalSink sink = sink(DeliveryGuarantee.EXACTLY_ONCE, Duration.ofSeconds(1));
        sink.send(record());
        producers.get(0).commitTransactionException = new ProducerFencedException("fenced");

        assertThatThrownBy(() -> commit(sink))
                .isInstanceOfSatisfying(
                        TaskMigratedException.class,
                        e -> assertThat(e.producerFenced()).isTrue());

        sink.abort();
        sink.replaceProducerIfFenced();
        assertThat(producers).hasSize(2);
        assertThat(producers.get(0).closed()).isTrue();
        assertThat(producers.get(1).transactionInitialized()).isTrue();
    }

    @Test
    void otherCommitErrorsAreAbortedAndKeepTheProducer() {
        TransactionalSink sink = sink(DeliveryGuarantee.EXACTLY_ONCE, Duration.ofSeconds(1));
        sink.send(record());
        producers.get(0).sendOffsetsToTransactionException = new KafkaException("broker trouble");

        assertThatThrownBy(() -> commit(sink)).isInstanceOf(CommitAbortedException.class);
        sink.abort();

        assertThat(producers.get(0).transactionAborted()).isTrue();
        sink.replaceProducerIfFenced();
        assertThat(producers).hasSize(1);
    }

    @Test
    void aCommitThatKeepsTimingOutReplacesTheProducer() {
        TransactionalSink sink = sink(DeliveryGuarantee.EXACTLY_ONCE, Duration.ZERO);
        sink.send(record());
        producers.get(0).commitTransactionException = new TimeoutException("slow");
        assertThatThrownBy(() -> commit(sink))
                .isInstanceOfSatisfying(
                        TaskMigratedException.class,
                        e -> assertThat(e.producerFenced()).isTrue());
        sink.replaceProducerIfFenced();
        assertThat(producers).hasSize(2);
    }

    @Test
    void abortDiscardsTheOpenTransaction() {
        TransactionalSink sink = sink(DeliveryGuarantee.EXACTLY_ONCE, Duration.ofSeconds(1));
        sink.send(record());
        sink.abort();
        assertThat(producers.get(0).transactionAborted()).isTrue();
        assertThat(sink.inTransaction()).isFalse();
    }

    @Test
    void atLeastOnceFlushesThenCommitsOffsetsThroughTheConsumer() {
        TransactionalSink sink = sink(DeliveryGuarantee.AT_LEAST_ONCE, Duration.ofSeconds(1));
        sink.send(record());
        commit(sink);
        assertThat(producers.get(0).flushed()).isTrue();
        assertThat(producers.get(0).transactionInitialized()).isFalse();
        assertThat(consumer.committed(Set.of(IN))).containsEntry(IN, new OffsetAndMetadata(10));
    }

    @Test
    void atMostOnceCommitsPositionsBeforeProcessing() {
        TransactionalSink sink = sink(DeliveryGuarantee.AT_MOST_ONCE, Duration.ofSeconds(1));
        sink.afterPoll(Map.of(IN, new OffsetAndMetadata(5)));
        assertThat(consumer.committed(Set.of(IN))).containsEntry(IN, new OffsetAndMetadata(5));
        commit(sink);
        assertThat(consumer.committed(Set.of(IN))).containsEntry(IN, new OffsetAndMetadata(5));
    }
}
