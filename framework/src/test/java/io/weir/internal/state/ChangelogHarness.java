package io.weir.internal.state;

import io.weir.internal.commit.CommitObserver;
import io.weir.internal.commit.CommitUnit;
import io.weir.internal.commit.Committer;
import io.weir.internal.commit.OpenTransaction;
import io.weir.sink.DeliveryGuarantee;
import io.weir.sink.internal.TransactionalSink;
import io.weir.state.changelog.ChangelogRestorer;
import io.weir.state.changelog.RestoreListener;
import io.weir.state.internal.BytesStore;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.MockConsumer;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.clients.producer.MockProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArraySerializer;

/**
 * The commit protocol over task stores with a mock producer, and a restore from what it sent to
 * the changelog, without a broker.
 */
final class ChangelogHarness {

    final MockProducer<byte[], byte[]> producer =
            new MockProducer<>(true, null, new ByteArraySerializer(), new ByteArraySerializer());
    private final Committer committer = new Committer(
            new TransactionalSink(
                    DeliveryGuarantee.EXACTLY_ONCE,
                    () -> producer,
                    new MockConsumer<>("earliest"),
                    Duration.ofSeconds(1)),
            CommitObserver.NONE);

    /** Commits {@code store}'s pending writes: changelog, transaction, then the committed store. */
    void commit(TaskStore store) {
        commit(store, new TopicPartition("in", store.changelog().partition()), 1);
    }

    /**
     * Commits {@code store}'s pending writes with {@code input}'s next offset, as a task with this
     * one store would.
     */
    void commit(TaskStore store, TopicPartition input, long nextOffset) {
        OpenTransaction transaction = committer.transaction();
        committer.commit(List.of(new CommitUnit() {
            @Override
            public void finishInFlight() {}

            @Override
            public void writePendingChangelog() {
                store.writeChangelog(transaction);
            }

            @Override
            public void writeNextOffsets() {
                transaction.commitOffsets(Map.of(input, new OffsetAndMetadata(nextOffset)));
            }

            @Override
            public void committed() {
                store.commit(Map.of(input, nextOffset));
            }

            @Override
            public void aborted() {
                store.abort();
            }
        }));
    }

    /** The records sent to {@code changelog}, in order. */
    List<ProducerRecord<byte[], byte[]>> sent(TopicPartition changelog) {
        return producer.history().stream()
                .filter(r -> r.topic().equals(changelog.topic()) && r.partition() == changelog.partition())
                .toList();
    }

    /** Restores {@code into} from what was sent to {@code changelog} (offsets from 0), as at a task's start. */
    long restore(TopicPartition changelog, BytesStore into) {
        List<ProducerRecord<byte[], byte[]>> records = sent(changelog);
        MockConsumer<byte[], byte[]> consumer = new MockConsumer<>("none");
        consumer.updateBeginningOffsets(Map.of(changelog, 0L));
        consumer.updateEndOffsets(Map.of(changelog, (long) records.size()));
        consumer.schedulePollTask(() -> {
            for (int i = 0; i < records.size(); i++) {
                consumer.addRecord(new ConsumerRecord<>(
                        changelog.topic(),
                        changelog.partition(),
                        i,
                        records.get(i).key(),
                        records.get(i).value()));
            }
        });
        return new ChangelogRestorer(consumer).restore(changelog, into, RestoreListener.NONE);
    }
}
