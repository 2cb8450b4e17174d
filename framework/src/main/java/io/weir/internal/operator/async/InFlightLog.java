package io.weir.internal.operator.async;

import io.weir.common.KeyValue;
import io.weir.processor.Headers;
import io.weir.processor.Record;
import io.weir.serde.Serde;
import io.weir.state.KeyValueIterator;
import io.weir.state.KeyValueStore;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.header.internals.RecordHeader;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.apache.kafka.common.record.TimestampType;

/**
 * The calls of an asynchronous step that were in flight at a commit, in the step's store
 * {@code <name>-in-flight} (seq to the record as it reached the step, with its origin), so that
 * whoever runs the task next calls again for exactly those. Written at step 1 of each commit for
 * the calls taken since, deleted when a call leaves the step; the store's changelog carries both
 * in the commit's transaction.
 *
 * <p>Why a store, where DESIGN.md names the commit's offset metadata (Parallel Consumer's way) or a
 * drain as the choices: the offset of a partition's lowest incomplete record would make a new owner
 * replay that record through the whole sub-topology, repeating what the steps before this one
 * already committed for it (outputs, state). Keeping the step's pending inputs with the commit
 * replays this step alone, as Flink keeps Async I/O's elements in its checkpoint; a drain at each
 * commit would empty the pipeline every commit interval.
 *
 * <p>Threading: the task's stream thread only.
 */
final class InFlightLog<K, V> {

    private static final byte FORMAT = 1;

    private final KeyValueStore<Long, byte[]> store;
    private final Serde<K> keySerde;
    private final Serde<V> valueSerde;
    /** The topic name serdes are given: the store's changelog, as for any store value. */
    private final String topic;

    InFlightLog(KeyValueStore<Long, byte[]> store, Serde<K> keySerde, Serde<V> valueSerde) {
        this.store = store;
        this.keySerde = keySerde;
        this.valueSerde = valueSerde;
        this.topic = store.name();
    }

    /** Writes the call into the store (in the open transaction's changelog batch). */
    void write(Call<K, V> call) {
        store.put(call.seq, encode(call));
        call.logged = true;
    }

    void delete(Call<K, V> call) {
        store.delete(call.seq);
    }

    /** The calls the store holds, in input order, marked as logged. */
    List<Call<K, V>> read() {
        List<Call<K, V>> calls = new ArrayList<>();
        try (KeyValueIterator<Long, byte[]> it = store.all()) {
            while (it.hasNext()) {
                KeyValue<Long, byte[]> kv = it.next();
                Call<K, V> call = decode(kv.key(), kv.value());
                call.logged = true;
                calls.add(call);
            }
        }
        calls.sort(java.util.Comparator.comparingLong(c -> c.seq));
        return calls;
    }

    private byte[] encode(Call<K, V> call) {
        Record<K, V> r = call.record;
        ByteArrayOutputStream bytes = new ByteArrayOutputStream(64);
        try (DataOutputStream out = new DataOutputStream(bytes)) {
            out.writeByte(FORMAT);
            out.writeUTF(call.idempotencyKey());
            out.writeUTF(call.origin.topic());
            out.writeInt(call.origin.partition());
            out.writeLong(call.origin.offset());
            out.writeLong(r.timestamp());
            writeBytes(out, r.key() == null ? null : keySerde.serialize(topic, r.key()));
            writeBytes(out, r.value() == null ? null : valueSerde.serialize(topic, r.value()));
            org.apache.kafka.common.header.Header[] headers = r.headers().toArray();
            out.writeInt(headers.length);
            for (org.apache.kafka.common.header.Header h : headers) {
                out.writeUTF(h.key());
                writeBytes(out, h.value());
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return bytes.toByteArray();
    }

    private Call<K, V> decode(long seq, byte[] encoded) {
        try (DataInputStream in = new DataInputStream(new ByteArrayInputStream(encoded))) {
            byte format = in.readByte();
            if (format != FORMAT) {
                throw new IllegalStateException("store '" + topic + "' holds a call in format " + format
                        + ", which this version of Weir does not read (it writes " + FORMAT + ")");
            }
            String idempotencyKey = in.readUTF();
            String originTopic = in.readUTF();
            int partition = in.readInt();
            long offset = in.readLong();
            long timestamp = in.readLong();
            byte[] key = readBytes(in);
            byte[] value = readBytes(in);
            RecordHeaders headers = new RecordHeaders();
            int n = in.readInt();
            for (int i = 0; i < n; i++) {
                headers.add(new RecordHeader(in.readUTF(), readBytes(in)));
            }
            // The origin as the dead-letter topic will show it: the record as it reached the step.
            ConsumerRecord<byte[], byte[]> origin =
                    origin(originTopic, partition, offset, timestamp, key, value, headers);
            Record<K, V> record = new Record<>(
                    key == null ? null : keySerde.deserialize(topic, key),
                    value == null ? null : valueSerde.deserialize(topic, value),
                    timestamp,
                    Headers.of(headers),
                    originTopic,
                    partition,
                    offset);
            return new Call<>(seq, record, origin, idempotencyKey);
        } catch (IOException e) {
            throw new UncheckedIOException("store '" + topic + "' holds a call Weir cannot read", e);
        }
    }

    /** A call's origin rebuilt from what the step knows of it, as the dead-letter topic will show it. */
    static ConsumerRecord<byte[], byte[]> origin(
            String topic, int partition, long offset, long timestamp, byte[] key, byte[] value, RecordHeaders headers) {
        return new ConsumerRecord<>(
                topic,
                partition,
                offset,
                timestamp,
                TimestampType.CREATE_TIME,
                key == null ? -1 : key.length,
                value == null ? -1 : value.length,
                key,
                value,
                headers,
                Optional.empty());
    }

    private static void writeBytes(DataOutputStream out, byte[] b) throws IOException {
        if (b == null) {
            out.writeInt(-1);
        } else {
            out.writeInt(b.length);
            out.write(b);
        }
    }

    private static byte[] readBytes(DataInputStream in) throws IOException {
        int n = in.readInt();
        return n < 0 ? null : in.readNBytes(n);
    }
}
