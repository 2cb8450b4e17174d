package io.weir.internal.operator.table;

import io.weir.errors.SerdeException;
import io.weir.serde.Serde;
import java.nio.ByteBuffer;

/**
 * A {@link Change} in a re-keying repartition topic: a flags byte (1: has the old value, 2: has
 * the new value), then, when both are present, the old value's length (4 bytes, big-endian), then
 * the old value's bytes, then the new value's, each in the value serde's format. A change whose
 * old and new values group to the same key travels as one record, so the aggregate never shows
 * the subtraction without the addition; otherwise as two, one per key.
 */
public final class ChangeSerde<V> implements Serde<Change<V>> {

    private static final byte OLD = 1;
    private static final byte NEW = 2;

    private final Serde<V> values;

    public ChangeSerde(Serde<V> values) {
        this.values = values;
    }

    @Override
    public byte[] serialize(String topic, Change<V> change) {
        if (change == null) {
            return null;
        }
        byte[] old = change.oldValue() == null ? null : values.serialize(topic, change.oldValue());
        byte[] updated = change.newValue() == null ? null : values.serialize(topic, change.newValue());
        int flags = (old != null ? OLD : 0) | (updated != null ? NEW : 0);
        ByteBuffer buffer = ByteBuffer.allocate(1
                + (old != null && updated != null ? 4 : 0)
                + (old == null ? 0 : old.length)
                + (updated == null ? 0 : updated.length));
        buffer.put((byte) flags);
        if (old != null && updated != null) {
            buffer.putInt(old.length);
        }
        if (old != null) {
            buffer.put(old);
        }
        if (updated != null) {
            buffer.put(updated);
        }
        return buffer.array();
    }

    @Override
    public Change<V> deserialize(String topic, byte[] bytes) {
        if (bytes == null) {
            return null;
        }
        if (bytes.length == 0 || (bytes[0] & ~(OLD | NEW)) != 0) {
            throw new SerdeException("not a table change in topic " + topic + ": "
                    + (bytes.length == 0 ? "no bytes" : "unknown flags " + bytes[0]));
        }
        ByteBuffer buffer = ByteBuffer.wrap(bytes, 1, bytes.length - 1);
        boolean hasOld = (bytes[0] & OLD) != 0;
        boolean hasNew = (bytes[0] & NEW) != 0;
        int oldLength = hasOld && hasNew ? buffer.getInt() : hasOld ? buffer.remaining() : 0;
        if (oldLength < 0 || oldLength > buffer.remaining()) {
            throw new SerdeException("a table change in topic " + topic + " declares an old value of " + oldLength
                    + " bytes in " + buffer.remaining());
        }
        V old = hasOld ? values.deserialize(topic, slice(buffer, oldLength)) : null;
        V updated = hasNew ? values.deserialize(topic, slice(buffer, buffer.remaining())) : null;
        return new Change<>(old, updated);
    }

    private static byte[] slice(ByteBuffer buffer, int length) {
        byte[] b = new byte[length];
        buffer.get(b);
        return b;
    }

    @Override
    public String formatId() {
        return "change(" + values.formatId() + ")";
    }
}
