package io.weir.internal.operator.join;

import io.weir.errors.SerdeException;
import io.weir.serde.Serde;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;

/**
 * The records of one side of a stream-stream join that have one key and one timestamp, in arrival
 * order, each with whether a record of the other side has joined it yet (an outer side emits the
 * ones that never matched when no record can match them any more). Immutable.
 */
public record JoinBuffer<V>(List<V> values, List<Boolean> matched) {

    static <V> JoinBuffer<V> of(V value, boolean matched) {
        return new JoinBuffer<>(java.util.Collections.singletonList(value), List.of(matched));
    }

    /** This buffer and {@code value} after it. */
    JoinBuffer<V> plus(V value, boolean isMatched) {
        List<V> v = new ArrayList<>(values);
        List<Boolean> m = new ArrayList<>(matched);
        v.add(value);
        m.add(isMatched);
        return new JoinBuffer<>(java.util.Collections.unmodifiableList(v), List.copyOf(m));
    }

    /** True if every record has matched. */
    boolean allMatched() {
        return !matched.contains(Boolean.FALSE);
    }

    /** This buffer with every record marked matched. */
    JoinBuffer<V> allMarkedMatched() {
        return new JoinBuffer<>(values, values.stream().map(v -> Boolean.TRUE).toList());
    }

    /**
     * The bytes: per record, a matched byte (0 or 1), the length of the value (4 bytes,
     * big-endian; -1 for a null value) and the value in the side's serde.
     */
    public static final class BufferSerde<V> implements Serde<JoinBuffer<V>> {

        private final Serde<V> values;

        public BufferSerde(Serde<V> values) {
            this.values = values;
        }

        @Override
        public byte[] serialize(String topic, JoinBuffer<V> buffer) {
            if (buffer == null) {
                return null;
            }
            List<byte[]> parts = new ArrayList<>(buffer.values().size());
            int size = 0;
            for (V v : buffer.values()) {
                byte[] b = v == null ? null : values.serialize(topic, v);
                parts.add(b);
                size += 5 + (b == null ? 0 : b.length);
            }
            ByteBuffer out = ByteBuffer.allocate(size);
            for (int i = 0; i < parts.size(); i++) {
                byte[] b = parts.get(i);
                out.put((byte) (buffer.matched().get(i) ? 1 : 0));
                out.putInt(b == null ? -1 : b.length);
                if (b != null) {
                    out.put(b);
                }
            }
            return out.array();
        }

        @Override
        public JoinBuffer<V> deserialize(String topic, byte[] bytes) {
            if (bytes == null) {
                return null;
            }
            ByteBuffer in = ByteBuffer.wrap(bytes);
            List<V> v = new ArrayList<>();
            List<Boolean> m = new ArrayList<>();
            while (in.hasRemaining()) {
                if (in.remaining() < 5) {
                    throw new SerdeException("a join buffer of " + bytes.length + " bytes ends in a partial entry");
                }
                m.add(in.get() != 0);
                int length = in.getInt();
                if (length < -1 || length > in.remaining()) {
                    throw new SerdeException("a join buffer entry declares " + length + " bytes in " + in.remaining());
                }
                if (length < 0) {
                    v.add(null);
                } else {
                    byte[] b = new byte[length];
                    in.get(b);
                    v.add(values.deserialize(topic, b));
                }
            }
            return new JoinBuffer<>(java.util.Collections.unmodifiableList(v), List.copyOf(m));
        }

        @Override
        public String formatId() {
            return "join-buffer(" + values.formatId() + ")";
        }
    }
}
