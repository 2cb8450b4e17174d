package io.weir.internal.savepoint;

import java.io.ByteArrayOutputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.util.function.BiConsumer;
import java.util.zip.CRC32;

/**
 * The data records of a savepoint: a store's entries, in key order, packed into chunks of about
 * {@code maxBytes} each ({@code [version 1][int keyLength][key][int valueLength][value]...}), so a
 * store of a million small entries is a few hundred records, not a million. The CRC-32 runs over
 * every key and value of the store in order; the manifest keeps it and a restore checks it.
 *
 * <p>Not thread-safe: one writer per store copy.
 */
public final class Chunks {

    static final byte VERSION = 1;

    private final int maxBytes;
    private final BiConsumer<Integer, byte[]> out;
    private final CRC32 crc = new CRC32();
    private ByteArrayOutputStream buffer = new ByteArrayOutputStream();
    private DataOutputStream data = new DataOutputStream(buffer);
    private int chunks;
    private long records;
    private long bytes;

    /**
     * @param out told each full chunk with its sequence number (0, 1, ...)
     */
    public Chunks(int maxBytes, BiConsumer<Integer, byte[]> out) {
        this.maxBytes = maxBytes;
        this.out = out;
        reset();
    }

    public void add(byte[] key, byte[] value) {
        try {
            data.writeInt(key.length);
            data.write(key);
            data.writeInt(value.length);
            data.write(value);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        crc.update(key);
        crc.update(value);
        records++;
        bytes += key.length + value.length;
        if (buffer.size() >= maxBytes) {
            emit();
        }
    }

    /** Emits the last, partial chunk (an empty store emits one empty chunk, so every store has data). */
    public void finish() {
        if (buffer.size() > 1 || chunks == 0) {
            emit();
        }
    }

    public int chunks() {
        return chunks;
    }

    public long records() {
        return records;
    }

    public long bytes() {
        return bytes;
    }

    public long crc32() {
        return crc.getValue();
    }

    private void emit() {
        out.accept(chunks++, buffer.toByteArray());
        reset();
    }

    private void reset() {
        buffer = new ByteArrayOutputStream(Math.min(maxBytes + 1024, 1 << 20));
        data = new DataOutputStream(buffer);
        buffer.write(VERSION);
    }

    /**
     * Calls {@code entry} for every entry of a chunk, in order; updates {@code crc} with them.
     *
     * @throws IllegalArgumentException if the chunk is not a chunk of this format
     */
    public static int read(byte[] chunk, CRC32 crc, BiConsumer<byte[], byte[]> entry) {
        ByteBuffer b = ByteBuffer.wrap(chunk);
        if (b.remaining() < 1 || b.get() != VERSION) {
            throw new IllegalArgumentException("not a savepoint data chunk of version " + VERSION);
        }
        int n = 0;
        while (b.hasRemaining()) {
            byte[] key = new byte[b.getInt()];
            b.get(key);
            byte[] value = new byte[b.getInt()];
            b.get(value);
            crc.update(key);
            crc.update(value);
            entry.accept(key, value);
            n++;
        }
        return n;
    }
}
