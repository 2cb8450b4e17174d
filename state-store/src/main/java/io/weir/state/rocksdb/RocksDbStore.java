package io.weir.state.rocksdb;

import io.weir.errors.StateStoreException;
import io.weir.state.internal.ByteKeys;
import io.weir.state.internal.BytesIterator;
import io.weir.state.internal.BytesStore;
import io.weir.state.internal.WriteBatch;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.OptionalLong;
import java.util.stream.Stream;
import org.rocksdb.ColumnFamilyDescriptor;
import org.rocksdb.ColumnFamilyHandle;
import org.rocksdb.RocksDB;
import org.rocksdb.RocksDBException;
import org.rocksdb.RocksIterator;
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

    private final String name;
    private final Path dir;
    private final RocksDbResources resources;
    private final RocksDbOptions options;
    private final RocksDB db;
    private final ColumnFamilyHandle data;
    private final ColumnFamilyHandle metadata;
    private final CloseGuard guard;
    private volatile long changelogOffset;
    private volatile String changelogTopicId;

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
        this.guard = new CloseGuard(name);
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
                            new ColumnFamilyDescriptor(MetadataFamily.NAME, options.metadata())),
                    families);
            // Only now, holding RocksDB's lock on the directory: a file of another open store's
            // ingestion in progress is never touched.
            IngestFiles.deleteLeft(dir);
            return new RocksDbStore(
                    name,
                    dir,
                    resources,
                    options,
                    db,
                    families,
                    MetadataFamily.offset(db, families.get(1)),
                    MetadataFamily.topicId(db, families.get(1)));
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
        long stamp = guard.readLock();
        try {
            return db.get(data, key);
        } catch (RocksDBException e) {
            throw RocksDbErrors.onAccess(name, "get", e);
        } finally {
            guard.unlockRead(stamp);
        }
    }

    @Override
    public BytesIterator range(byte[] from, byte[] to, boolean reverse) {
        if (ByteKeys.isEmptyRange(from, to)) {
            return new EmptyIterator(guard);
        }
        return iterator(from, to == null ? null : ByteKeys.successor(to), reverse);
    }

    @Override
    public BytesIterator prefix(byte[] prefix) {
        return iterator(prefix.length == 0 ? null : prefix, ByteKeys.prefixEnd(prefix), false);
    }

    @Override
    public long approximateCount() {
        long stamp = guard.readLock();
        try {
            return Math.max(0, db.getLongProperty(data, "rocksdb.estimate-num-keys"));
        } catch (RocksDBException e) {
            throw RocksDbErrors.onAccess(name, "estimate its size", e);
        } finally {
            guard.unlockRead(stamp);
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
     * directory, ingested into the data family (RocksDB links the file
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
        long stamp = guard.readLock();
        try {
            IngestFiles.ingest(db, data, options, dir, changes, name);
            MetadataFamily.putOffset(db, options.write(), metadata, offset);
            // Nothing else would make the offset durable: an ingestion fills no memtable, so no
            // flush comes, and a restart would read the whole changelog again. Flushed with the
            // data family (atomic flush), so whatever was applied before is durable with it.
            db.flush(options.flush(), List.of(data, metadata));
            changelogOffset = offset;
        } catch (RocksDBException e) {
            throw RocksDbErrors.onAccess(name, "ingest a restored batch", e);
        } finally {
            guard.unlockRead(stamp);
        }
    }

    /** Writes the deletes with one RocksDB batch, range deletes as range tombstones; the offset stays. */
    @Override
    public void applyDeletes(WriteBatch deletes) {
        if (!deletes.isDeletesOnly()) {
            throw new IllegalArgumentException("applyDeletes takes deletes only; store '" + name + "'");
        }
        write(deletes, MetadataFamily.NO_OFFSET, "delete");
    }

    /** One atomic RocksDB write of {@code changes}, with {@code offset} unless it is {@link MetadataFamily#NO_OFFSET}. */
    private void write(WriteBatch changes, long offset, String what) {
        long stamp = guard.readLock();
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
            if (offset != MetadataFamily.NO_OFFSET) {
                MetadataFamily.putOffset(batch, metadata, offset);
            }
            if (batch.count() == 0) {
                return;
            }
            db.write(options.write(), batch);
            if (offset != MetadataFamily.NO_OFFSET) {
                changelogOffset = offset;
            }
        } catch (RocksDBException e) {
            throw RocksDbErrors.onAccess(name, what, e);
        } finally {
            guard.unlockRead(stamp);
        }
    }

    @Override
    public OptionalLong changelogOffset() {
        guard.checkOpen();
        long offset = changelogOffset;
        return offset == MetadataFamily.NO_OFFSET ? OptionalLong.empty() : OptionalLong.of(offset);
    }

    @Override
    public java.util.Optional<String> changelogTopicId() {
        guard.checkOpen();
        return java.util.Optional.ofNullable(changelogTopicId);
    }

    @Override
    public void recordChangelogTopicId(String topicId) {
        java.util.Objects.requireNonNull(topicId, "topicId");
        long stamp = guard.readLock();
        try {
            MetadataFamily.putTopicId(db, options.write(), metadata, topicId);
            changelogTopicId = topicId;
        } catch (RocksDBException e) {
            throw RocksDbErrors.onAccess(name, "record the changelog topic id", e);
        } finally {
            guard.unlockRead(stamp);
        }
    }

    /** Deletes all entries with one range tombstone (and the offset and topic id) in one write, then compacts the files away. */
    @Override
    public void clear() {
        long stamp = guard.readLock();
        try (RocksIterator first = db.newIterator(data);
                RocksIterator last = db.newIterator(data);
                org.rocksdb.WriteBatch batch = new org.rocksdb.WriteBatch()) {
            first.seekToFirst();
            last.seekToLast();
            if (first.isValid() && last.isValid()) {
                batch.deleteRange(data, first.key(), ByteKeys.successor(last.key()));
            }
            MetadataFamily.deleteAll(batch, metadata);
            db.write(options.write(), batch);
            changelogOffset = MetadataFamily.NO_OFFSET;
            changelogTopicId = null;
            db.compactRange(data);
        } catch (RocksDBException e) {
            throw RocksDbErrors.onAccess(name, "clear", e);
        } finally {
            guard.unlockRead(stamp);
        }
    }

    /**
     * Schedules a flush of both column families together (atomic flush keeps data and offset
     * consistent) and returns at once.
     */
    @Override
    public void flushAsync() {
        long stamp = guard.readLockEvenIfClosed();
        try {
            if (guard.isClosed()) {
                return;
            }
            db.flush(options.flushAsync(), List.of(data, metadata));
        } catch (RocksDBException e) {
            log.warn("Store '{}': background flush failed; the changelog restores what a crash loses", name, e);
        } finally {
            guard.unlockRead(stamp);
        }
    }

    /**
     * Closes open iterators, flushes the memtables (nothing is in a WAL, so this is what makes a
     * clean close lose nothing), and frees the database. Idempotent.
     */
    @Override
    public void close() {
        guard.close(() -> {
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
        });
    }

    /** Closes the store and deletes its directory. */
    @Override
    public void destroy() {
        close();
        deleteRecursively(dir);
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

    private BytesIterator iterator(byte[] lower, byte[] upperExclusive, boolean reverse) {
        long stamp = guard.readLock();
        try {
            RocksDbIterator it = RocksDbIterator.open(guard, db, data, lower, upperExclusive, reverse);
            guard.track(it);
            return it;
        } finally {
            guard.unlockRead(stamp);
        }
    }

    @Override
    public String toString() {
        return "RocksDbStore[" + name + " at " + dir + "]";
    }
}
