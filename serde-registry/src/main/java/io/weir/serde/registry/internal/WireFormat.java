package io.weir.serde.registry.internal;

import io.weir.errors.SerdeException;
import java.nio.ByteBuffer;
import java.util.Arrays;

/**
 * The schema registry's wire format, as Confluent's serializers write it and every registry-aware
 * client reads it: a zero magic byte, the schema id as a 4-byte big-endian integer, then (Protobuf
 * only) the path of the message type in its file as zig-zag varints, then the payload.
 */
public final class WireFormat {

    static final byte MAGIC = 0;
    static final int HEADER_BYTES = 5;

    /** The Protobuf path of the first message of a file, written as one zero byte (an empty list). */
    private static final int[] FIRST_MESSAGE = {0};

    private WireFormat() {}

    /** Where a framed payload starts, and the schema (and for Protobuf the message) it was written with. */
    public record Frame(int schemaId, int[] messageIndexes, int payloadOffset) {}

    /** The header for {@code schemaId}, to which the payload is appended. */
    public static void writeHeader(ByteSink out, int schemaId) {
        out.write(MAGIC);
        out.writeInt(schemaId);
    }

    /** Protobuf's message path after the header: a count and the indexes, or a single 0 for {@code [0]}. */
    public static void writeMessageIndexes(ByteSink out, int[] indexes) {
        if (Arrays.equals(indexes, FIRST_MESSAGE)) {
            out.write(0);
            return;
        }
        out.writeZigZagVarint(indexes.length);
        for (int i : indexes) {
            out.writeZigZagVarint(i);
        }
    }

    /** Reads the header of a non-Protobuf payload; a record not in the wire format is a {@link SerdeException}. */
    public static Frame read(String topic, byte[] bytes) {
        checkHeader(topic, bytes);
        return new Frame(ByteBuffer.wrap(bytes, 1, 4).getInt(), null, HEADER_BYTES);
    }

    /** Reads the header and Protobuf's message path. */
    public static Frame readProtobuf(String topic, byte[] bytes) {
        checkHeader(topic, bytes);
        int id = ByteBuffer.wrap(bytes, 1, 4).getInt();
        int[] pos = {HEADER_BYTES};
        int count = readZigZagVarint(topic, bytes, pos);
        int[] indexes;
        if (count == 0) {
            indexes = FIRST_MESSAGE;
        } else if (count < 0 || count > 100) {
            throw new SerdeException("record on " + topic + " (schema id " + id + ") has a Protobuf message path of "
                    + count + " entries: not a Protobuf payload in the schema registry's wire format");
        } else {
            indexes = new int[count];
            for (int i = 0; i < count; i++) {
                indexes[i] = readZigZagVarint(topic, bytes, pos);
            }
        }
        return new Frame(id, indexes, pos[0]);
    }

    private static void checkHeader(String topic, byte[] bytes) {
        if (bytes.length < HEADER_BYTES) {
            throw new SerdeException("record on " + topic + " has " + bytes.length
                    + " bytes: too short for the schema registry's wire format (a magic byte and a 4-byte schema id)");
        }
        if (bytes[0] != MAGIC) {
            throw new SerdeException("record on " + topic + " is not in the schema registry's wire format: first byte "
                    + (bytes[0] & 0xff) + ", expected the magic byte 0");
        }
    }

    private static int readZigZagVarint(String topic, byte[] bytes, int[] pos) {
        int value = 0;
        int shift = 0;
        while (true) {
            if (pos[0] >= bytes.length || shift > 28) {
                throw new SerdeException("record on " + topic + " ends inside its Protobuf message path");
            }
            byte b = bytes[pos[0]++];
            value |= (b & 0x7f) << shift;
            if ((b & 0x80) == 0) {
                break;
            }
            shift += 7;
        }
        return (value >>> 1) ^ -(value & 1);
    }

    /** A growable byte array that the encoders write into; one per call, so serdes stay thread-safe. */
    public static final class ByteSink extends java.io.OutputStream {
        private byte[] buf;
        private int size;

        public ByteSink(int capacity) {
            buf = new byte[Math.max(16, capacity)];
        }

        @Override
        public void write(int b) {
            ensure(1);
            buf[size++] = (byte) b;
        }

        @Override
        public void write(byte[] b, int off, int len) {
            ensure(len);
            System.arraycopy(b, off, buf, size, len);
            size += len;
        }

        void writeInt(int v) {
            ensure(4);
            buf[size++] = (byte) (v >>> 24);
            buf[size++] = (byte) (v >>> 16);
            buf[size++] = (byte) (v >>> 8);
            buf[size++] = (byte) v;
        }

        void writeZigZagVarint(int v) {
            int z = (v << 1) ^ (v >> 31);
            while ((z & ~0x7f) != 0) {
                write((z & 0x7f) | 0x80);
                z >>>= 7;
            }
            write(z);
        }

        public int size() {
            return size;
        }

        public byte[] toByteArray() {
            return Arrays.copyOf(buf, size);
        }

        private void ensure(int more) {
            if (size + more > buf.length) {
                buf = Arrays.copyOf(buf, Math.max(buf.length * 2, size + more));
            }
        }
    }
}
