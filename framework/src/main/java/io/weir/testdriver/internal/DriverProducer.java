package io.weir.testdriver.internal;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Future;
import java.util.function.LongSupplier;
import org.apache.kafka.clients.consumer.Consumer;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.clients.producer.Callback;
import org.apache.kafka.clients.producer.MockProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArraySerializer;

/**
 * The test driver's producer: Kafka's transactional {@link MockProducer}, plus what the brokers
 * and the group coordinator do with a transaction. When a transaction commits, its records are
 * appended to the driver's in-memory topics (where read_committed readers see them) and its input
 * offsets become the group's committed offsets, in the topics and in the driver's consumer (where
 * a task assigned again resumes from them); an aborted transaction leaves no trace.
 *
 * <p>A send to a given partition is acknowledged with the offset the record will have in the
 * in-memory topic: the partition's end plus the records sent to it earlier in the transaction. So
 * a changelog writer stores the offsets its changelog really has, and a restore knows where a
 * store stands (MockProducer's own offsets count aborted records and ignore partitions). That
 * holds for partitions nothing else appends to while the transaction is open: changelogs and
 * repartition topics, and outputs unless a test pipes to them too. A send without a partition
 * keeps MockProducer's acknowledgement: its partition is chosen when it is appended.
 *
 * <p>Threading: the driver's thread only.
 */
final class DriverProducer extends MockProducer<byte[], byte[]> {

    private final DriverTopics topics;
    private final Consumer<byte[], byte[]> consumer;
    private final LongSupplier wallClock;
    /** Records sent to each partition since the transaction began. */
    private final Map<TopicPartition, Integer> sentInTransaction = new HashMap<>();

    /** @param wallClock stamps records sent without a timestamp */
    DriverProducer(DriverTopics topics, Consumer<byte[], byte[]> consumer, LongSupplier wallClock) {
        super(true, null, new ByteArraySerializer(), new ByteArraySerializer());
        this.topics = topics;
        this.consumer = consumer;
        this.wallClock = wallClock;
    }

    @Override
    public synchronized Future<RecordMetadata> send(ProducerRecord<byte[], byte[]> record, Callback callback) {
        if (record.partition() == null || !topics.exists(record.topic())) {
            return super.send(record, callback);
        }
        TopicPartition tp = new TopicPartition(record.topic(), record.partition());
        int earlier = sentInTransaction.getOrDefault(tp, 0);
        long offset = topics.endOffset(tp) + earlier;
        Future<RecordMetadata> result = super.send(
                record,
                callback == null
                        ? null
                        : (metadata, e) -> callback.onCompletion(
                                metadata == null
                                        ? null
                                        : new RecordMetadata(
                                                tp,
                                                offset,
                                                0,
                                                metadata.timestamp(),
                                                metadata.serializedKeySize(),
                                                metadata.serializedValueSize()),
                                e));
        sentInTransaction.put(tp, earlier + 1);
        return result;
    }

    @Override
    public void beginTransaction() {
        super.beginTransaction();
        sentInTransaction.clear();
    }

    /**
     * Commits, then appends the transaction's records to the topics and commits its offsets.
     *
     * @throws IllegalStateException if a record was sent to a topic the driver does not have;
     *     nothing was committed and the transaction is still open
     */
    @Override
    public void commitTransaction() {
        for (ProducerRecord<byte[], byte[]> r : uncommittedRecords()) {
            if (!topics.exists(r.topic())) {
                throw new IllegalStateException(
                        "a record was sent to topic '" + r.topic() + "', which the test driver does not have");
            }
        }
        super.commitTransaction();
        sentInTransaction.clear();
        publish(history());
        for (Map<String, Map<TopicPartition, OffsetAndMetadata>> byGroup : consumerGroupOffsetsHistory()) {
            for (Map<TopicPartition, OffsetAndMetadata> offsets : byGroup.values()) {
                topics.commitOffsets(offsets);
                consumer.commitSync(offsets);
            }
        }
        clear(); // published: keeps the history from growing
    }

    @Override
    public void abortTransaction() {
        super.abortTransaction();
        sentInTransaction.clear();
    }

    private void publish(List<ProducerRecord<byte[], byte[]>> records) {
        for (ProducerRecord<byte[], byte[]> r : records) {
            topics.append(
                    r.topic(),
                    r.partition(),
                    r.key(),
                    r.value(),
                    r.timestamp() != null ? r.timestamp() : wallClock.getAsLong(),
                    r.headers().toArray());
        }
    }
}
