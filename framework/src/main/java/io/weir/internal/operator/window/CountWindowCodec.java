package io.weir.internal.operator.window;

import io.weir.serde.Serde;
import java.io.ByteArrayOutputStream;
import java.util.ArrayList;
import java.util.List;

/**
 * The bytes of a {@link CountWindowState}, as kept in the store and its changelog:
 * <pre>
 * state  := version(1 byte = 1) phase(varint) windowCount(varint) window*
 * window := first(8 bytes, big-endian) min-first(zigzag varint) max-first(zigzag varint)
 *           count(varint) aggregateLength+1(varint, 0 = null aggregate) aggregate bytes
 * </pre>
 * Times are stored relative to the window's first record, so an in-order window costs 8 bytes
 * plus a few for its times and count. The aggregate goes through the aggregate serde with the
 * store's changelog topic. A state that does not parse is an {@link IllegalStateException}.
 */
final class CountWindowCodec<VA> {

    private static final int VERSION = 1;

    private final Serde<VA> aggregateSerde;

    CountWindowCodec(Serde<VA> aggregateSerde) {
        this.aggregateSerde = aggregateSerde;
    }

    byte[] encode(String topic, CountWindowState<VA> state) {
        ByteArrayOutputStream out = new ByteArrayOutputStream(32);
        out.write(VERSION);
        writeVarLong(out, state.phase());
        writeVarLong(out, state.windows().size());
        for (CountWindowState.Window<VA> w : state.windows()) {
            for (int shift = 56; shift >= 0; shift -= 8) {
                out.write((int) (w.first() >>> shift));
            }
            writeVarLong(out, zigzag(w.min() - w.first()));
            writeVarLong(out, zigzag(w.max() - w.first()));
            writeVarLong(out, w.count());
            byte[] aggregate = aggregateSerde.serialize(topic, w.aggregate());
            writeVarLong(out, aggregate == null ? 0 : aggregate.length + 1L);
            if (aggregate != null) {
                out.writeBytes(aggregate);
            }
        }
        return out.toByteArray();
    }

    CountWindowState<VA> decode(String topic, byte[] bytes) {
        Reader in = new Reader(bytes);
        int version = in.readByte();
        if (version != VERSION) {
            throw new IllegalStateException("count-window state of version " + version + " in " + topic
                    + "; this version reads version " + VERSION);
        }
        long phase = in.readVarLong();
        long n = in.readVarLong();
        if (n < 0 || n > bytes.length) {
            throw new IllegalStateException(
                    "corrupt count-window state in " + topic + ": " + n + " windows in " + bytes.length + " bytes");
        }
        List<CountWindowState.Window<VA>> windows = new ArrayList<>((int) n);
        for (long i = 0; i < n; i++) {
            long first = 0;
            for (int b = 0; b < Long.BYTES; b++) {
                first = first << 8 | in.readByte();
            }
            long min = first + unzigzag(in.readVarLong());
            long max = first + unzigzag(in.readVarLong());
            long count = in.readVarLong();
            long length = in.readVarLong() - 1;
            VA aggregate = length < 0 ? null : aggregateSerde.deserialize(topic, in.readBytes(length));
            windows.add(new CountWindowState.Window<>(first, min, max, count, aggregate));
        }
        if (!in.atEnd()) {
            throw new IllegalStateException("corrupt count-window state in " + topic + ": trailing bytes");
        }
        return new CountWindowState<>(phase, windows);
    }

    private static long zigzag(long v) {
        return (v << 1) ^ (v >> 63);
    }

    private static long unzigzag(long v) {
        return (v >>> 1) ^ -(v & 1);
    }

    private static void writeVarLong(ByteArrayOutputStream out, long v) {
        while ((v & ~0x7FL) != 0) {
            out.write((int) ((v & 0x7F) | 0x80));
            v >>>= 7;
        }
        out.write((int) v);
    }

    /** Reads the encoding, failing with a clear message on truncated input. */
    private static final class Reader {
        private final byte[] bytes;
        private int pos;

        Reader(byte[] bytes) {
            this.bytes = bytes;
        }

        int readByte() {
            if (pos >= bytes.length) {
                throw new IllegalStateException("corrupt count-window state: truncated at byte " + pos);
            }
            return bytes[pos++] & 0xFF;
        }

        long readVarLong() {
            long v = 0;
            for (int shift = 0; shift < 64; shift += 7) {
                int b = readByte();
                v |= (long) (b & 0x7F) << shift;
                if ((b & 0x80) == 0) {
                    return v;
                }
            }
            throw new IllegalStateException("corrupt count-window state: a number longer than 10 bytes");
        }

        byte[] readBytes(long length) {
            if (length > bytes.length - pos) {
                throw new IllegalStateException("corrupt count-window state: " + length + " aggregate bytes, "
                        + (bytes.length - pos) + " left");
            }
            byte[] out = java.util.Arrays.copyOfRange(bytes, pos, pos + (int) length);
            pos += (int) length;
            return out;
        }

        boolean atEnd() {
            return pos == bytes.length;
        }
    }
}
