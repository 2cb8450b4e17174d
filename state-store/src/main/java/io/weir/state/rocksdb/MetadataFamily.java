package io.weir.state.rocksdb;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import org.rocksdb.ColumnFamilyHandle;
import org.rocksdb.RocksDB;
import org.rocksdb.RocksDBException;
import org.rocksdb.WriteBatch;
import org.rocksdb.WriteOptions;

/**
 * A store's {@code metadata} column family: the changelog offset the data family matches, and the
 * id of the changelog topic the offset refers to, when one was recorded.
 */
final class MetadataFamily {

    static final byte[] NAME = "metadata".getBytes(StandardCharsets.UTF_8);
    /** No offset is stored. */
    static final long NO_OFFSET = -1;

    private static final byte[] OFFSET_KEY = "changelog.offset".getBytes(StandardCharsets.UTF_8);
    private static final byte[] TOPIC_ID_KEY = "changelog.topic.id".getBytes(StandardCharsets.UTF_8);

    private MetadataFamily() {}

    /** The stored offset, or {@link #NO_OFFSET}. */
    static long offset(RocksDB db, ColumnFamilyHandle family) throws RocksDBException {
        byte[] raw = db.get(family, OFFSET_KEY);
        if (raw == null) {
            return NO_OFFSET;
        }
        if (raw.length != Long.BYTES) {
            throw new IllegalStateException("Stored changelog offset has " + raw.length + " bytes, expected 8");
        }
        return ByteBuffer.wrap(raw).getLong();
    }

    /** The stored topic id, or null. */
    static String topicId(RocksDB db, ColumnFamilyHandle family) throws RocksDBException {
        byte[] raw = db.get(family, TOPIC_ID_KEY);
        return raw == null ? null : new String(raw, StandardCharsets.UTF_8);
    }

    static void putOffset(RocksDB db, WriteOptions write, ColumnFamilyHandle family, long offset)
            throws RocksDBException {
        db.put(family, write, OFFSET_KEY, encode(offset));
    }

    static void putOffset(WriteBatch batch, ColumnFamilyHandle family, long offset) throws RocksDBException {
        batch.put(family, OFFSET_KEY, encode(offset));
    }

    static void putTopicId(RocksDB db, WriteOptions write, ColumnFamilyHandle family, String topicId)
            throws RocksDBException {
        db.put(family, write, TOPIC_ID_KEY, topicId.getBytes(StandardCharsets.UTF_8));
    }

    /** Deletes the offset and the topic id. */
    static void deleteAll(WriteBatch batch, ColumnFamilyHandle family) throws RocksDBException {
        batch.delete(family, OFFSET_KEY);
        batch.delete(family, TOPIC_ID_KEY);
    }

    private static byte[] encode(long offset) {
        return ByteBuffer.allocate(Long.BYTES).putLong(offset).array();
    }
}
