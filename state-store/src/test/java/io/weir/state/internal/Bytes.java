package io.weir.state.internal;

import io.weir.common.KeyValue;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/** Test helpers: readable keys and values, and draining iterators into strings. */
public final class Bytes {

    private Bytes() {}

    /** UTF-8 bytes of {@code s}. */
    public static byte[] b(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    /** Bytes from unsigned values, e.g. {@code u(0x00, 0xFF)}. */
    public static byte[] u(int... unsigned) {
        byte[] bytes = new byte[unsigned.length];
        for (int i = 0; i < unsigned.length; i++) {
            bytes[i] = (byte) unsigned[i];
        }
        return bytes;
    }

    public static String s(byte[] bytes) {
        return bytes == null ? null : new String(bytes, StandardCharsets.UTF_8);
    }

    /** Drains and closes {@code it}, returning "key=value" strings. */
    public static List<String> entries(BytesIterator it) {
        try (it) {
            List<String> out = new ArrayList<>();
            while (it.hasNext()) {
                KeyValue<byte[], byte[]> e = it.next();
                out.add(s(e.key()) + "=" + s(e.value()));
            }
            return out;
        }
    }

    /** Drains and closes {@code it}, returning the keys as lists of unsigned ints (for binary keys). */
    public static List<List<Integer>> unsignedKeys(BytesIterator it) {
        try (it) {
            List<List<Integer>> out = new ArrayList<>();
            while (it.hasNext()) {
                byte[] key = it.next().key();
                List<Integer> k = new ArrayList<>();
                for (byte x : key) {
                    k.add(x & 0xFF);
                }
                out.add(k);
            }
            return out;
        }
    }

    /** A batch putting "key=value" pairs (value "-" deletes). */
    public static WriteBatch batch(String... keyEqualsValue) {
        WriteBatch batch = new WriteBatch();
        for (String kv : keyEqualsValue) {
            String[] parts = kv.split("=", 2);
            batch.put(b(parts[0]), parts[1].equals("-") ? null : b(parts[1]));
        }
        return batch;
    }
}
