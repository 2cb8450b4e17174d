package io.weir.internal.operator.join;

import io.weir.errors.SerdeException;
import io.weir.serde.Serde;
import java.nio.ByteBuffer;
import java.util.Arrays;

/**
 * What the right side of a foreign-key join sends back to a subscribed left row: the right row of
 * its foreign key ({@code null} for none) and the digest the subscription carried, by which the
 * left side recognises an answer to its row's current value.
 */
public record FkResponse<VO>(byte[] hash, VO rightValue) {

    @Override
    public boolean equals(Object o) {
        return o instanceof FkResponse<?> r
                && Arrays.equals(r.hash, hash)
                && java.util.Objects.equals(r.rightValue, rightValue);
    }

    @Override
    public int hashCode() {
        return Arrays.hashCode(hash) * 31 + java.util.Objects.hashCode(rightValue);
    }

    /**
     * In the response topic: a flags byte (1: has a right value), the digest
     * ({@value ValueHash#LENGTH} bytes), then the right value in its serde's format.
     */
    public static final class FkResponseSerde<VO> implements Serde<FkResponse<VO>> {

        private static final byte HAS_VALUE = 1;

        private final Serde<VO> values;

        public FkResponseSerde(Serde<VO> values) {
            this.values = values;
        }

        @Override
        public byte[] serialize(String topic, FkResponse<VO> r) {
            if (r == null) {
                return null;
            }
            byte[] value = r.rightValue() == null ? new byte[0] : values.serialize(topic, r.rightValue());
            return ByteBuffer.allocate(1 + ValueHash.LENGTH + value.length)
                    .put(r.rightValue() == null ? 0 : HAS_VALUE)
                    .put(r.hash())
                    .put(value)
                    .array();
        }

        @Override
        public FkResponse<VO> deserialize(String topic, byte[] bytes) {
            if (bytes == null) {
                return null;
            }
            if (bytes.length < 1 + ValueHash.LENGTH || (bytes[0] & ~HAS_VALUE) != 0) {
                throw new SerdeException("not a foreign-key join response in topic " + topic + ": " + bytes.length
                        + " bytes" + (bytes.length == 0 ? "" : ", flags " + bytes[0]));
            }
            byte[] hash = Arrays.copyOfRange(bytes, 1, 1 + ValueHash.LENGTH);
            VO value = bytes[0] == HAS_VALUE
                    ? values.deserialize(topic, Arrays.copyOfRange(bytes, 1 + ValueHash.LENGTH, bytes.length))
                    : null;
            return new FkResponse<>(hash, value);
        }

        @Override
        public String formatId() {
            return "fk-response(" + values.formatId() + ")";
        }
    }
}
