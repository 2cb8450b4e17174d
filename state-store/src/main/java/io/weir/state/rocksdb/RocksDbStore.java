package io.weir.state.rocksdb;

import io.weir.common.KeyValue;
import io.weir.errors.StateStoreException;
import io.weir.errors.StoreClosedException;
import io.weir.state.internal.ByteKeys;
import io.weir.state.internal.BytesIterator;
import io.weir.state.internal.BytesStore;
import io.weir.state.internal.LookaheadIterator;
import io.weir.state.internal.WriteBatch;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.OptionalLong;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.locks.StampedLock;
import java.util.stream.Stream;
import org.rocksdb.ColumnFamilyDescriptor;
import org.rocksdb.ColumnFamilyHandle;
import org.rocksdb.EnvOptions;
import org.rocksdb.IngestExternalFileOptions;
import org.rocksdb.Options;
import org.rocksdb.RocksDB;
import org.rocksdb.RocksDBException;
import org.rocksdb.RocksIterator;
import org.rocksdb.SstFileWriter;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A {@link BytesStore} in one RocksDB database per store directory: entries in the {@code default}
 * column family, the changelog offset in a {@code metadata} column family, both written by one
 * RocksDB write batch per {@link #apply}. The metadata family also holds the id of the changelog
 * topic the offset refers to, when one was recorded.
 *
 * <p>Durability comes from the changelog, not from RocksDB: the write-ahead log is off, and
 * {@code atomic_flush} makes both column families flush together. After a crash the store
 * reopens at its last flush, an older but consistent state whose data matches its stored offset
 * exactly, and restore replays the changelog from there. {@link #close()} flushes, so a clean
 * shutdown loses nothing. Memory is bounded by the shared {@link RocksDbResources}.
 *
 * <p>Guarantees: as {@link BytesStore}. Iterators see a consistent snapshot of the store taken when
 * they were created (RocksDB's implicit iterator snapshot), whatever is applied later. Opening a
 * damaged directory throws {@link io.weir.errors.StoreCorruptedException}; a directory held by
 * another open store throws {@link StateStoreException}. Threads: one writer, many readers;
 * {@link #close()} waits for operations in progress, then frees every native object, iterators
 * included, so no use after close can touch freed memory.
 */
public final class RocksDbStore implements BytesStore {

    private static final Logger log = LoggerFactory.getLogger(RocksDbStore.class);
    private static final byte[] METADATA_FAMILY = "metadata".getBytes(StandardCharsets.UTF_8);
    private static final byte[] OFFSET_KEY = "changelog.offset".getBytes(StandardCharsets.UTF_8);
    private static final byte[] TOPIC_ID_KEY = "changelog.topic.id".getBytes(StandardCharsets.UTF_8);
    private static final long NO_OFFSET = -1;
    /** Files written for {@link #ingest}; one left by a crash before its ingestion is deleted on open. */
    private static final String INGEST_PREFIX = "weir-ingest-";

    private static final java.util.concurrent.atomic.AtomicLong INGESTS = new java.util.concurrent.atomic.AtomicLong();

    private final String name;
    private final Path dir;
    private final RocksDbResources resources;
    private final RocksDbOptions options;
    private final RocksDB db;
    private final ColumnFamilyHandle data;
    private final ColumnFamilyHandle metadata;
    /** Read-locked by every operation, write-locked by close: natives are freed only when no one is inside. */
    private final StampedLock lock = new StampedLock();

    private final Set<RocksDbIterator> openIterators = ConcurrentHashMap.newKeySet();
    private volatile long changelogOffset;
    private volatile String changelogTopicId;
    private volatile boolean closed;

    private RocksDbStore(
            String name,
            Path dir,
            RocksDbResources resources,
            RocksDbOptions options,
            RocksDB db,
            List<ColumnFamilyHandle> families,
            long changelogOffset,
            String changelogTopicId) {
        this.name = name;
        this.dir = dir;
        this.resources = resources;
        this.options = options;
        this.db = db;
        this.data = families.get(0);
        this.metadata = families.get(1);
        this.changelogOffset = changelogOffset;
        this.changelogTopicId = changelogTopicId;
    }

    /**
     * Opens the store in {@code dir}, creating it if absent.
     *
     * @throws io.weir.errors.StoreCorruptedException if the directory holds something that cannot be
     *                                                opened as this store: wipe it and restore
     * @throws StateStoreException                    if another open store holds the directory
     */
    public static RocksDbStore open(Path dir, String name, RocksDbResources resources) {
        resources.acquire();
        RocksDbOptions options = new RocksDbOptions(resources);
        List<ColumnFamilyHandle> families = new ArrayList<>(2);
        RocksDB db = null;
        try {
            Files.createDirectories(dir);
            db = RocksDB.open(
                    options.db(),
                    dir.toString(),
                    List.of(
                            new ColumnFamilyDescriptor(RocksDB.DEFAULT_COLUMN_FAMILY, options.data()),
                            new ColumnFamilyDescriptor(METADATA_FAMILY, options.metadata())),
                    families);
            // Only now, holding RocksDB's lock on the directory: a file of another open store's
            // ingestion in progress is never touched.
            deleteLeftIngestFiles(dir);
            byte[] offset = db.get(families.get(1), OFFSET_KEY);
            byte[] topicId = db.get(families.get(1), TOPIC_ID_KEY);
            return new RocksDbStore(
                    name,
                    dir,
                    resources,
                    options,
                    db,
                    families,
                    offset == null ? NO_OFFSET : decodeOffset(offset),
                    topicId == null ? null : new String(topicId, StandardCharsets.UTF_8));
        } catch (RocksDBException | IOException | RuntimeException e) {
            families.forEach(ColumnFamilyHandle::close);
            if (db != null) {
                db.close();
            }
            options.close();
            resources.release();
            throw RocksDbErrors.onOpen(name, dir, e);
        }
    }

    @Override
    public String name() {
        return name;
    }

    /** The store's directory. */
    public Path directory() {
        return dir;
    }

    @Override
    public byte[] get(byte[] key) {
        long stamp = readLock();
        try {
            return db.get(data, key);
        } catch (RocksDBException e) {
            throw RocksDbErrors.onAccess(name, "get", e);
        } finally {
            lock.unlockRead(stamp);
        }
    }

    @Override
    public BytesIterator range(byte[] from, byte[] to, boolean reverse) {
        if (ByteKeys.isEmptyRange(from, to)) {
            return new Empty();
        }
        return iterator(from, to == null ? null : ByteKeys.successor(to), reverse);
    }

    @Override
    public BytesIterator prefix(byte[] prefix) {
        return iterator(prefix.length == 0 ? null : prefix, ByteKeys.prefixEnd(prefix), false);
    }

    @Override
    public long approximateCount() {
        long stamp = readLock();
        try {
            return Math.max(0, db.getLongProperty(data, "rocksdb.estimate-num-keys"));
        } catch (RocksDBException e) {
            throw RocksDbErrors.onAccess(name, "estimate its size", e);
        } finally {
            lock.unlockRead(stamp);
        }
    }

    @Override
    public void apply(WriteBatch changes, long offset) {
        if (offset < 0) {
            throw new IllegalArgumentException("Negative changelog offset " + offset);
        }
        write(changes, offset, "apply a batch");
    }

    /**
     * A bulk load: the last write of each key in key order into an SST file in the store's
     * directory ({@value #INGEST_PREFIX}*.sst), ingested into the data family (RocksDB links the file
     * in and records it in its manifest: no memtable, no write-ahead log), then the offset, flushed.
     * A crash before the ingestion leaves a file that the next {@link #open} deletes; after it, the
     * entries are in the store ahead of the offset, which a changelog replay makes exact again (see
     * {@link BytesStore#ingest}). An empty batch only records the offset.
     */
    @Override
    public void ingest(WriteBatch changes, long offset) {
        if (changes.hasRangeDeletes()) {
            throw new IllegalArgumentException("a bulk load takes no range deletes; store '" + name + "'");
        }
        if (offset < 0) {
            throw new IllegalArgumentException("Negative changelog offset " + offset);
        }
        long stamp = readLock();
        Path file = dir.resolve(INGEST_PREFIX + INGESTS.incrementAndGet() + ".sst");
        try {
            int[] order = changes.lastWritePerKeyInKeyOrder();
            if (order.length > 0) {
                try (EnvOptions env = new EnvOptions();
                        Options sst = options.sstFiles();
                        SstFileWriter writer = new SstFileWriter(env, sst)) {
                    writer.open(file.toString());
                    writeSorted(writer, changes, order);
                    writer.finish();
                }
                try (IngestExternalFileOptions ingest = new IngestExternalFileOptions()) {
                    ingest.setMoveFiles(true); // a hard link: the file is not copied
                    db.ingestExternalFile(data, List.of(file.toString()), ingest);
                }
            }
            db.put(metadata, options.write(), OFFSET_KEY, encodeOffset(offset));
            // Nothing else would make the offset durable: an ingestion fills no memtable, so no
            // flush comes, and a restart would read the whole changelog again. Flushed with the
            // data family (atomic flush), so whatever was applied before is durable with it.
            db.flush(options.flush(), List.of(data, metadata));
            changelogOffset = offset;
        } catch (RocksDBException e) {
            throw RocksDbErrors.onAccess(name, "ingest a restored batch", e);
        } finally {
            deleteQuietly(file);
            lock.unlockRead(stamp);
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

    /** Writes the deletes with one RocksDB batch, range deletes as range tombstones; the offset stays. */
    @Override
    public void applyDeletes(WriteBatch deletes) {
        if (!deletes.isDeletesOnly()) {
            throw new IllegalArgumentException("applyDeletes takes deletes only; store '" + name + "'");
        }
        write(deletes, NO_OFFSET, "delete");
    }

    /** One atomic RocksDB write of {@code changes}, with {@code offset} unless it is {@link #NO_OFFSET}. */
    private void write(WriteBatch changes, long offset, String what) {
        long stamp = readLock();
        // One JNI call per entry; encoding RocksDB's batch format in Java to cross JNI once was
        // measured no faster: inserting into the memtable dominates.
        try (org.rocksdb.WriteBatch batch = new org.rocksdb.WriteBatch()) {
            boolean ranges = changes.hasRangeDeletes();
            for (int i = 0, n = changes.size(); i < n; i++) {
                byte[] value = changes.value(i);
                byte[] rangeEnd = ranges ? changes.rangeEnd(i) : null;
                if (rangeEnd != null) {
                    batch.deleteRange(data, changes.key(i), rangeEnd);
                } else if (value == null) {
                    batch.delete(data, changes.key(i));
                } else {
                    batch.put(data, changes.key(i), value);
                }
            }
            if (offset != NO_OFFSET) {
                batch.put(metadata, OFFSET_KEY, encodeOffset(offset));
            }
            if (batch.count() == 0) {
                return;
            }
            db.write(options.write(), batch);
            if (offset != NO_OFFSET) {
                changelogOffset = offset;
            }
        } catch (RocksDBException e) {
            throw RocksDbErrors.onAccess(name, what, e);
        } finally {
            lock.unlockRead(stamp);
        }
    }

    @Override
    public OptionalLong changelogOffset() {
        checkOpen();
        long offset = changelogOffset;
        return offset == NO_OFFSET ? OptionalLong.empty() : OptionalLong.of(offset);
    }

    @Override
    public java.util.Optional<String> changelogTopicId() {
        checkOpen();
        return java.util.Optional.ofNullable(changelogTopicId);
    }

    @Override
    public void recordChangelogTopicId(String topicId) {
        java.util.Objects.requireNonNull(topicId, "topicId");
        long stamp = readLock();
        try {
            db.put(metadata, options.write(), TOPIC_ID_KEY, topicId.getBytes(StandardCharsets.UTF_8));
            changelogTopicId = topicId;
        } catch (RocksDBException e) {
            throw RocksDbErrors.onAccess(name, "record the changelog topic id", e);
        } finally {
            lock.unlockRead(stamp);
        }
    }

    /** Deletes all entries with one range tombstone (and the offset and topic id) in one write, then compacts the files away. */
    @Override
    public void clear() {
        long stamp = readLock();
        try (RocksIterator first = db.newIterator(data);
                RocksIterator last = db.newIterator(data);
                org.rocksdb.WriteBatch batch = new org.rocksdb.WriteBatch()) {
            first.seekToFirst();
            last.seekToLast();
            if (first.isValid() && last.isValid()) {
                batch.deleteRange(data, first.key(), ByteKeys.successor(last.key()));
            }
            batch.delete(metadata, OFFSET_KEY);
            batch.delete(metadata, TOPIC_ID_KEY);
            db.write(options.write(), batch);
            changelogOffset = NO_OFFSET;
            changelogTopicId = null;
            db.compactRange(data);
        } catch (RocksDBException e) {
            throw RocksDbErrors.onAccess(name, "clear", e);
        } finally {
            lock.unlockRead(stamp);
        }
    }

    /**
     * Schedules a flush of both column families together (atomic flush keeps data and offset
     * consistent) and returns at once.
     */
    @Override
    public void flushAsync() {
        long stamp = lock.readLock();
        try {
            if (closed) {
                return;
            }
            db.flush(options.flushAsync(), List.of(data, metadata));
        } catch (RocksDBException e) {
            log.warn("Store '{}': background flush failed; the changelog restores what a crash loses", name, e);
        } finally {
            lock.unlockRead(stamp);
        }
    }

    /**
     * Closes open iterators, flushes the memtables (nothing is in a WAL, so this is what makes a
     * clean close lose nothing), and frees the database. Idempotent.
     */
    @Override
    public void close() {
        long stamp = lock.writeLock();
        try {
            if (closed) {
                return;
            }
            closed = true;
            for (RocksDbIterator it : openIterators) {
                it.releaseNative();
            }
            openIterators.clear();
            try {
                db.flush(options.flush(), List.of(data, metadata));
            } catch (RocksDBException e) {
                log.warn("Store '{}': flush on close failed; the changelog will restore what is lost", name, e);
            }
            data.close();
            metadata.close();
            try {
                db.closeE();
            } catch (RocksDBException e) {
                log.warn("Store '{}': close reported an error", name, e);
            }
            options.close();
            resources.release();
        } finally {
            lock.unlockWrite(stamp);
        }
    }

    /** Closes the store and deletes its directory. */
    @Override
    public void destroy() {
        close();
        deleteRecursively(dir);
    }

    private static void deleteLeftIngestFiles(Path dir) throws IOException {
        try (Stream<Path> files = Files.list(dir)) {
            for (Path f : (Iterable<Path>)
                    files.filter(f -> f.getFileName().toString().startsWith(INGEST_PREFIX))::iterator) {
                Files.deleteIfExists(f);
            }
        }
    }

    private void deleteQuietly(Path file) {
        try {
            Files.deleteIfExists(file); // moved into the database: RocksDB holds its own link
        } catch (IOException e) {
            log.warn("Store '{}': cannot delete {} after ingesting it", name, file, e);
        }
    }

    /** Deletes a store directory and everything in it, e.g. after {@link io.weir.errors.StoreCorruptedException}. */
    public static void deleteRecursively(Path dir) {
        if (!Files.exists(dir)) {
            return;
        }
        try (Stream<Path> paths = Files.walk(dir)) {
            for (Path p : (Iterable<Path>) paths.sorted(Comparator.reverseOrder())::iterator) {
                Files.delete(p);
            }
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot delete " + dir, e);
        }
    }

    // ------------------------------------------------------------------------ for the iterators

    /** Takes the read lock, or throws if closed (without holding the lock). */
    long readLock() {
        long stamp = lock.readLock();
        if (closed) {
            lock.unlockRead(stamp);
            throw new StoreClosedException(name);
        }
        return stamp;
    }

    /** Takes the read lock whether or not the store is closed; for iterator close. */
    long readLockEvenIfClosed() {
        return lock.readLock();
    }

    void unlockRead(long stamp) {
        lock.unlockRead(stamp);
    }

    boolean isClosed() {
        return closed;
    }

    void forget(RocksDbIterator it) {
        openIterators.remove(it);
    }

    private void checkOpen() {
        if (closed) {
            throw new StoreClosedException(name);
        }
    }

    private BytesIterator iterator(byte[] lower, byte[] upperExclusive, boolean reverse) {
        long stamp = readLock();
        try {
            RocksDbIterator it = RocksDbIterator.open(this, db, data, lower, upperExclusive, reverse);
            openIterators.add(it);
            return it;
        } finally {
            lock.unlockRead(stamp);
        }
    }

    private static byte[] encodeOffset(long offset) {
        return ByteBuffer.allocate(Long.BYTES).putLong(offset).array();
    }

    private static long decodeOffset(byte[] raw) {
        if (raw.length != Long.BYTES) {
            throw new IllegalStateException("Stored changelog offset has " + raw.length + " bytes, expected 8");
        }
        return ByteBuffer.wrap(raw).getLong();
    }

    @Override
    public String toString() {
        return "RocksDbStore[" + name + " at " + dir + "]";
    }

    /** The iterator of an empty range; still fails once the store is closed. */
    private final class Empty extends LookaheadIterator {
        @Override
        protected KeyValue<byte[], byte[]> fetch() {
            return null;
        }

        @Override
        protected void checkSource() {
            checkOpen();
        }
    }
}
