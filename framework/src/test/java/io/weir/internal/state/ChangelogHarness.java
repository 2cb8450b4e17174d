package io.weir.internal.state;

import io.weir.sink.DeliveryGuarantee;
import io.weir.sink.internal.CommitObserver;
import io.weir.sink.internal.CommitUnit;
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
    private final TransactionalSink sink = new TransactionalSink(DeliveryGuarantee.EXACTLY_ONCE, () -> producer,
            new MockConsumer<>("earliest"), CommitObserver.NONE, Duration.ofSeconds(1));

    /** Commits {@code store}'s pending writes: changelog, transaction, then the committed store. */
    void commit(TaskStore store) {
        sink.commit(List.of(new CommitUnit() {
            @Override
            public void completeInFlight() {
            }

            @Override
            public void sendPendingChangelog() {
                store.sendChangelog(sink);
            }

            @Override
            public Map<TopicPartition, OffsetAndMetadata> committableOffsets() {
                return Map.of(new TopicPartition("in", store.changelog().partition()), new OffsetAndMetadata(1));
            }

            @Override
            public void onCommitted() {
                store.commit();
            }

            @Override
            public void onAborted() {
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
                consumer.addRecord(new ConsumerRecord<>(changelog.topic(), changelog.partition(), i,
                        records.get(i).key(), records.get(i).value()));
            }
        });
        return new ChangelogRestorer(consumer).restore(changelog, into, RestoreListener.NONE);
    }
}
