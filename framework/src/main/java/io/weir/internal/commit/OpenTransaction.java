package io.weir.internal.commit;

import io.weir.sink.internal.TransactionalSink;
import java.util.HashMap;
import java.util.Map;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.clients.producer.Callback;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;

/**
 * A stream thread's open transaction as its tasks see it: between two commits they write their
 * outputs, dead letters, late records, changelog records and watermark markers here (sent at
 * once through the thread's producer, inside the transaction under exactly-once), and at the
 * commit the next input offsets. The {@link Committer} commits or aborts what was written; a
 * task never calls the committer or the sink.
 *
 * <p>Threading: owned by one stream thread; not thread-safe. A send's acknowledgement callback
 * runs on the producer's I/O thread.
 */
public final class OpenTransaction {

    private final TransactionalSink sink;
    private final Map<TopicPartition, OffsetAndMetadata> offsets = new HashMap<>();

    public OpenTransaction(TransactionalSink sink) {
        this.sink = sink;
    }

    /**
     * Sends a record as part of this transaction.
     *
     * @throws io.weir.sink.internal.TaskMigratedException if the producer was fenced
     * @throws io.weir.sink.internal.CommitAbortedException if an earlier send failed
     */
    public void send(ProducerRecord<byte[], byte[]> record) {
        sink.send(record);
    }

    /**
     * As {@link #send(ProducerRecord)}, and calls {@code onAck} once the broker acknowledged the
     * record (on the producer's I/O thread; keep it short): changelog writers learn the offsets
     * their records reached.
     */
    public void send(ProducerRecord<byte[], byte[]> record, Callback onAck) {
        sink.send(record, onAck);
    }

    /** Step 3's input: the next input offsets (with their metadata) this transaction commits. */
    public void commitOffsets(Map<TopicPartition, OffsetAndMetadata> next) {
        offsets.putAll(next);
    }

    /** True if the commit has anything to do: a record was sent or an offset is to be committed. */
    boolean hasWork() {
        return !offsets.isEmpty() || sink.inTransaction();
    }

    /** The offsets written since the last commit or abort, and forgets them. */
    Map<TopicPartition, OffsetAndMetadata> takeOffsets() {
        Map<TopicPartition, OffsetAndMetadata> taken = Map.copyOf(offsets);
        offsets.clear();
        return taken;
    }

    /** The transaction ended (committed or aborted): nothing written stays pending here. */
    void clear() {
        offsets.clear();
    }
}
