package io.weir.internal.task;

import io.weir.internal.topology.NodeSpec;
import io.weir.internal.topology.StoreSpec;
import io.weir.processor.Record;
import io.weir.serde.Serde;
import io.weir.state.changelog.SourceRecords;
import io.weir.time.TimestampExtractor;
import java.util.function.LongSupplier;
import org.apache.kafka.clients.consumer.ConsumerRecord;

/**
 * What a table's store keeps of the records of the compacted topic it is read from, when that topic
 * is its changelog ({@link StoreSpec#changelogIsSource()}): exactly what processing writes. A record
 * passes the table's source node as in processing (key and value deserialized, the time extracted
 * and not negative: otherwise it was dead-lettered) and must have a key (a row without one was
 * dead-lettered by the table); its entry is then the key and value serialized again by the store's
 * serdes, as the store's typed view writes them, so bytes a serde reads but would not write (other
 * whitespace in JSON, say) do not differ between a restored store and a processed one. A
 * {@code null} value deletes the row. A serde whose service is unavailable fails the restore
 * rather than leave the row out ({@link ErrorDecisions#requireAvailable}).
 *
 * <p>Threads: the state thread (the serdes are shared with the stream threads, as everywhere).
 */
public final class TableSourceRows implements SourceRecords {

    private final SourceNode source;
    private final Serde<Object> keySerde;
    private final Serde<Object> valueSerde;

    @SuppressWarnings("unchecked")
    TableSourceRows(
            NodeSpec.Source source, TimestampExtractor<?, ?> timestamps, LongSupplier wallClock, StoreSpec store) {
        this.source = new SourceNode(source, timestamps, wallClock);
        this.keySerde = (Serde<Object>) store.keySerde();
        this.valueSerde = (Serde<Object>) store.valueSerde();
    }

    @Override
    public Entry entry(ConsumerRecord<byte[], byte[]> in) {
        Record<Object, Object> r;
        try {
            r = source.read(in);
        } catch (StageException rejected) {
            // Not malformed when a service the serde needs is unavailable: the restore fails, the row stays.
            ErrorDecisions.requireAvailable(in, rejected.stage, rejected.getCause());
            return null;
        }
        if (r.key() == null) {
            return null;
        }
        String topic = in.topic();
        try {
            byte[] key = keySerde.serialize(topic, r.key());
            return new Entry(key, r.value() == null ? null : valueSerde.serialize(topic, r.value()));
        } catch (RuntimeException rejected) {
            ErrorDecisions.requireAvailable(in, Stage.PROCESS, rejected);
            return null; // the store's put fails the same way in processing: a dead letter
        }
    }
}
