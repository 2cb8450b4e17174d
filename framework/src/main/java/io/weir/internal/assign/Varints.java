package io.weir.internal.assign;

import io.weir.processor.TaskId;
import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * The wire pieces both assignment codecs share: variable-length integers (7 bits a byte, as
 * protobuf; longs zig-zag encoded so {@link MemberHooks#RUNNING} stays short), strings, and task
 * lists grouped by sub-topology, so a task costs about two bytes rather than eight. Kafka has the
 * same helpers, but only in its internal packages.
 */
final class Varints {

    private Varints() {}

    static void writeInt(ByteArrayOutputStream out, int value) {
        writeLong(out, value & 0xFFFFFFFFL);
    }

    static int readInt(ByteBuffer in) {
        long v = readLong(in);
        if (v > 0xFFFFFFFFL) {
            throw new IllegalArgumentException("varint too long for an int: " + v);
        }
        return (int) v;
    }

    /** A count or index: never negative, never larger than what is left to read. */
    static int readCount(ByteBuffer in) {
        int n = readInt(in);
        if (n < 0 || n > in.remaining()) {
            throw new IllegalArgumentException("bad count " + n + " with " + in.remaining() + " bytes left");
        }
        return n;
    }

    static void writeSignedLong(ByteArrayOutputStream out, long value) {
        writeLong(out, (value << 1) ^ (value >> 63));
    }

    static long readSignedLong(ByteBuffer in) {
        long v = readLong(in);
        return (v >>> 1) ^ -(v & 1);
    }

    private static void writeLong(ByteArrayOutputStream out, long value) {
        while ((value & ~0x7FL) != 0) {
            out.write((int) ((value & 0x7F) | 0x80));
            value >>>= 7;
        }
        out.write((int) value);
    }

    private static long readLong(ByteBuffer in) {
        long value = 0;
        for (int shift = 0; shift < 64; shift += 7) {
            byte b = in.get();
            value |= (long) (b & 0x7F) << shift;
            if ((b & 0x80) == 0) {
                return value;
            }
        }
        throw new IllegalArgumentException("varint longer than 10 bytes");
    }

    static void writeString(ByteArrayOutputStream out, String s) {
        byte[] bytes = s.getBytes(StandardCharsets.UTF_8);
        writeInt(out, bytes.length);
        out.writeBytes(bytes);
    }

    static String readString(ByteBuffer in) {
        byte[] bytes = new byte[readCount(in)];
        in.get(bytes);
        return new String(bytes, StandardCharsets.UTF_8);
    }

    /** Tasks with a long each, grouped by sub-topology: groups, then per group its tasks. */
    static void writeTaskLongs(ByteArrayOutputStream out, Map<TaskId, Long> values) {
        SortedMap<Integer, SortedMap<Integer, Long>> bySubtopology = new TreeMap<>();
        values.forEach((t, v) -> bySubtopology
                .computeIfAbsent(t.subtopology(), k -> new TreeMap<>())
                .put(t.partition(), v));
        writeInt(out, bySubtopology.size());
        bySubtopology.forEach((subtopology, partitions) -> {
            writeInt(out, subtopology);
            writeInt(out, partitions.size());
            partitions.forEach((p, v) -> {
                writeInt(out, p);
                writeSignedLong(out, v);
            });
        });
    }

    static SortedMap<TaskId, Long> readTaskLongs(ByteBuffer in) {
        SortedMap<TaskId, Long> values = new TreeMap<>();
        int groups = readCount(in);
        for (int g = 0; g < groups; g++) {
            int subtopology = readInt(in);
            int n = readCount(in);
            for (int i = 0; i < n; i++) {
                values.put(new TaskId(subtopology, readInt(in)), readSignedLong(in));
            }
        }
        return values;
    }

    /** Tasks grouped by sub-topology, as {@link #writeTaskLongs} without the values. */
    static void writeTasks(ByteArrayOutputStream out, Iterable<TaskId> tasks) {
        SortedMap<Integer, List<Integer>> bySubtopology = new TreeMap<>();
        tasks.forEach(t -> bySubtopology
                .computeIfAbsent(t.subtopology(), k -> new ArrayList<>())
                .add(t.partition()));
        writeInt(out, bySubtopology.size());
        bySubtopology.forEach((subtopology, partitions) -> {
            writeInt(out, subtopology);
            writeInt(out, partitions.size());
            partitions.stream().sorted().forEach(p -> writeInt(out, p));
        });
    }

    static List<TaskId> readTasks(ByteBuffer in) {
        List<TaskId> tasks = new ArrayList<>();
        int groups = readCount(in);
        for (int g = 0; g < groups; g++) {
            int subtopology = readInt(in);
            int n = readCount(in);
            for (int i = 0; i < n; i++) {
                tasks.add(new TaskId(subtopology, readInt(in)));
            }
        }
        return tasks;
    }
}
