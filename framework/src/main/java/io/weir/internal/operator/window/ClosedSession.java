package io.weir.internal.operator.window;

import io.weir.errors.SerdeException;
import io.weir.serde.Serde;
import java.nio.ByteBuffer;

/**
 * The start and end (both inclusive) of a key's latest closed session: the value of a session
 * aggregation's {@code <store>-last-closed} store ({@link SessionWindowProcessor}).
 */
record ClosedSession(long start, long end) {

    /** 16 bytes: start then end, big-endian; format id {@code closed-session}. */
    static final Serde<ClosedSession> SERDE = new Serde<>() {
        @Override
        public byte[] serialize(String topic, ClosedSession session) {
            if (session == null) {
                return null;
            }
            return ByteBuffer.allocate(2 * Long.BYTES)
                    .putLong(session.start)
                    .putLong(session.end)
                    .array();
        }

        @Override
        public ClosedSession deserialize(String topic, byte[] bytes) {
            if (bytes == null) {
                return null;
            }
            if (bytes.length != 2 * Long.BYTES) {
                throw new SerdeException("a closed session in " + topic + " has 16 bytes, not " + bytes.length);
            }
            ByteBuffer b = ByteBuffer.wrap(bytes);
            return new ClosedSession(b.getLong(), b.getLong());
        }

        @Override
        public String formatId() {
            return "closed-session";
        }
    };

    /** True if a record at {@code timestamp} falls within {@code gap} of this session. */
    boolean touches(long timestamp, long gap) {
        return WindowProcessor.minus(start, gap) <= timestamp && timestamp <= WindowProcessor.plus(end, gap);
    }
}
