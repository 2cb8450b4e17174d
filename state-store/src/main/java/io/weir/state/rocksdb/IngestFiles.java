package io.weir.state.rocksdb;

import io.weir.state.internal.WriteBatch;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Stream;
import org.rocksdb.ColumnFamilyHandle;
import org.rocksdb.EnvOptions;
import org.rocksdb.IngestExternalFileOptions;
import org.rocksdb.Options;
import org.rocksdb.RocksDB;
import org.rocksdb.RocksDBException;
import org.rocksdb.SstFileWriter;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The SST files of a store's bulk loads ({@link RocksDbStore#ingest}): written in the store's
 * directory as {@value #PREFIX}*.sst, then moved into the database by RocksDB. One left by a crash
 * before its ingestion is deleted when the store next opens.
 */
final class IngestFiles {

    /** Files written for {@link RocksDbStore#ingest}; one left by a crash before its ingestion is deleted on open. */
    private static final String PREFIX = "weir-ingest-";

    private static final AtomicLong INGESTS = new AtomicLong();
    // The store's logger: the message is about the store.
    private static final Logger log = LoggerFactory.getLogger(RocksDbStore.class);

    private IngestFiles() {}

    /**
     * Writes the last write of each key of {@code changes}, in key order, into a new SST file in
     * {@code dir} and moves it into {@code family} (nothing for an empty batch). The file is gone
     * when this returns, ingested or not.
     */
    static void ingest(
            RocksDB db,
            ColumnFamilyHandle family,
            RocksDbOptions options,
            Path dir,
            WriteBatch changes,
            String storeName)
            throws RocksDBException {
        int[] order = changes.lastWritePerKeyInKeyOrder();
        if (order.length == 0) {
            return;
        }
        Path file = dir.resolve(PREFIX + INGESTS.incrementAndGet() + ".sst");
        try {
            try (EnvOptions env = new EnvOptions();
                    Options sst = options.sstFiles();
                    SstFileWriter writer = new SstFileWriter(env, sst)) {
                writer.open(file.toString());
                writeSorted(writer, changes, order);
                writer.finish();
            }
            try (IngestExternalFileOptions ingest = new IngestExternalFileOptions()) {
                ingest.setMoveFiles(true); // a hard link: the file is not copied
                db.ingestExternalFile(family, List.of(file.toString()), ingest);
            }
        } finally {
            deleteQuietly(file, storeName);
        }
    }

    /**
     * Puts go through direct buffers: the array form has JNI copy both arrays into native memory
     * on every call (with its checks, a quarter of a bulk load's CPU in a profile); a direct
     * buffer is filled by a plain copy and read in place (a fifth, with the copy).
     */
    private static void writeSorted(SstFileWriter writer, WriteBatch changes, int[] order) throws RocksDBException {
        ByteBuffer key = ByteBuffer.allocateDirect(256);
        ByteBuffer value = ByteBuffer.allocateDirect(1024);
        for (int i : order) {
            byte[] v = changes.value(i);
            if (v == null) {
                writer.delete(changes.key(i));
                continue;
            }
            key = fill(key, changes.key(i));
            value = fill(value, v);
            writer.put(key, value);
        }
    }

    /** {@code buffer}, or a larger one, holding exactly {@code bytes}, ready to read. */
    private static ByteBuffer fill(ByteBuffer buffer, byte[] bytes) {
        ByteBuffer b = buffer.capacity() >= bytes.length
                ? buffer
                : ByteBuffer.allocateDirect(Math.max(bytes.length, 2 * buffer.capacity()));
        b.clear();
        b.put(bytes).flip();
        return b;
    }

    private static void deleteQuietly(Path file, String storeName) {
        try {
            Files.deleteIfExists(file); // moved into the database: RocksDB holds its own link
        } catch (IOException e) {
            log.warn("Store '{}': cannot delete {} after ingesting it", storeName, file, e);
        }
    }

    /** Deletes the files a crash left in {@code dir}; only while holding RocksDB's lock on it. */
    static void deleteLeft(Path dir) throws IOException {
        try (Stream<Path> files = Files.list(dir)) {
            for (Path f : (Iterable<Path>)
                    files.filter(f -> f.getFileName().toString().startsWith(PREFIX))::iterator) {
                Files.deleteIfExists(f);
            }
        }
    }
}
