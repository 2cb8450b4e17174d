package io.weir.internal.operator.join;

import io.weir.errors.SerdeException;
import io.weir.processor.Headers;
import io.weir.serde.Serde;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import org.apache.kafka.common.header.Header;

/**
 * The stream records of one key and one timestamp waiting out a stream-table join's grace period,
 * in arrival order, each with its headers (its result keeps them). Immutable.
 */
public record GraceBuffer<V>(List<Entry<V>> entries) {

    /** One waiting record's value and headers. */
    record Entry<V>(V value, Headers headers) {}

    static <V> GraceBuffer<V> of(V value, Headers headers) {
        return new GraceBuffer<>(List.of(new Entry<>(value, headers)));
    }

    /** This buffer and one more record after it. */
    GraceBuffer<V> plus(V value, Headers headers) {
        List<Entry<V>> e = new ArrayList<>(entries);
        e.add(new Entry<>(value, headers));
        return new GraceBuffer<>(Collections.unmodifiableList(e));
    }

    /**
     * The bytes: per record, the length of the value (4 bytes, big-endian) and the value in the
     * stream's serde, the number of headers (4 bytes), and per header the length of its key, the
     * key in UTF-8, the length of its value (-1 for none) and the value.
     */
    public static final class BufferSerde<V> implements Serde<GraceBuffer<V>> {

        private final Serde<V> values;

        public BufferSerde(Serde<V> values) {
            this.values = values;
        }

        @Override
        public byte[] serialize(String topic, GraceBuffer<V> buffer) {
            if (buffer == null) {
                return null;
            }
            List<byte[]> parts = new ArrayList<>();
            int size = 0;
            for (Entry<V> e : buffer.entries()) {
                byte[] v = values.serialize(topic, e.value());
                parts.add(v);
                size += 8 + v.length;
                for (Header h : e.headers().toArray()) {
                    byte[] k = h.key().getBytes(StandardCharsets.UTF_8);
                    byte[] hv = h.value();
                    parts.add(k);
                    parts.add(hv);
                    size += 8 + k.length + (hv == null ? 0 : hv.length);
                }
            }
            ByteBuffer out = ByteBuffer.allocate(size);
            int i = 0;
            for (Entry<V> e : buffer.entries()) {
                byte[] v = parts.get(i++);
                out.putInt(v.length).put(v);
                Header[] headers = e.headers().toArray();
                out.putInt(headers.length);
                for (int h = 0; h < headers.length; h++) {
                    byte[] k = parts.get(i++);
                    byte[] hv = parts.get(i++);
                    out.putInt(k.length).put(k);
                    out.putInt(hv == null ? -1 : hv.length);
                    if (hv != null) {
                        out.put(hv);
                    }
                }
            }
            return out.array();
        }

        @Override
        public GraceBuffer<V> deserialize(String topic, byte[] bytes) {
            if (bytes == null) {
                return null;
            }
            try {
                ByteBuffer in = ByteBuffer.wrap(bytes);
                List<Entry<V>> entries = new ArrayList<>();
                while (in.hasRemaining()) {
                    V value = values.deserialize(topic, take(in, in.getInt()));
                    int count = in.getInt();
                    Headers headers = Headers.empty();
                    for (int h = 0; h < count; h++) {
                        String key = new String(take(in, in.getInt()), StandardCharsets.UTF_8);
                        int length = in.getInt();
                        headers = headers.with(key, length < 0 ? null : take(in, length));
                    }
                    entries.add(new Entry<>(value, headers));
                }
                return new GraceBuffer<>(Collections.unmodifiableList(entries));
            } catch (RuntimeException e) {
                if (e instanceof SerdeException) {
                    throw e;
                }
                throw new SerdeException("a grace buffer of " + bytes.length + " bytes is malformed: " + e, e);
            }
        }

        private static byte[] take(ByteBuffer in, int length) {
            byte[] b = new byte[length];
            in.get(b);
            return b;
        }

        @Override
        public String formatId() {
            return "grace-buffer(" + values.formatId() + ")";
        }
    }
}
