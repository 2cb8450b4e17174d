package io.weir.testing;

import io.weir.errors.SerdeException;
import io.weir.serde.Serde;
import java.nio.ByteBuffer;

/**
 * The running aggregate of a key's long values, as {@link EosAggregatesApp} keeps and emits it:
 * smallest, largest, sum and count. Serialized as four 8-byte big-endian longs in that order.
 */
public record Aggregate(long min, long max, long sum, long count) {

    /** 32 bytes: min, max, sum, count. */
    public static final Serde<Aggregate> SERDE = new Serde<>() {
        @Override
        public byte[] serialize(String topic, Aggregate value) {
            return value == null ? null : value.toBytes();
        }

        @Override
        public Aggregate deserialize(String topic, byte[] bytes) {
            if (bytes == null) {
                return null;
            }
            if (bytes.length != 32) {
                throw new SerdeException("an aggregate is 32 bytes, was " + bytes.length);
            }
            return fromBytes(bytes);
        }
    };

    /** The aggregate of a key's first value. */
    public static Aggregate of(long value) {
        return new Aggregate(value, value, value, 1);
    }

    /** {@code before} (null: none yet) with one more value. */
    public static Aggregate add(Aggregate before, long value) {
        return before == null ? of(value) : before.plus(value);
    }

    public Aggregate plus(long value) {
        return new Aggregate(Math.min(min, value), Math.max(max, value), sum + value, count + 1);
    }

    public byte[] toBytes() {
        return ByteBuffer.allocate(32)
                .putLong(min)
                .putLong(max)
                .putLong(sum)
                .putLong(count)
                .array();
    }

    public static Aggregate fromBytes(byte[] bytes) {
        ByteBuffer b = ByteBuffer.wrap(bytes);
        return new Aggregate(b.getLong(), b.getLong(), b.getLong(), b.getLong());
    }

    @Override
    public String toString() {
        return "(min " + min + ", max " + max + ", sum " + sum + ", count " + count + ")";
    }
}
