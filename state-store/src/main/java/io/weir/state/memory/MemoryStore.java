package io.weir.state.memory;

import io.weir.errors.StoreClosedException;
import io.weir.state.internal.ByteKeys;
import io.weir.state.internal.BytesIterator;
import io.weir.state.internal.BytesStore;
import io.weir.state.internal.WriteBatch;
import java.util.Iterator;
import java.util.Map;
import java.util.NavigableMap;
import java.util.OptionalLong;
import java.util.concurrent.ConcurrentSkipListMap;

/**
 * A {@link BytesStore} on the heap, for small state and for tests: a
 * {@link ConcurrentSkipListMap} in {@link ByteKeys#ORDER}. Nothing survives the process; after a
 * restart the store is restored from its changelog.
 *
 * <p>Guarantees: as {@link BytesStore}, with these specifics. {@link #apply} is atomic for its
 * writer (it cannot half-fail), but a concurrent reader may see part of a batch while it is being
 * applied. Iterators are <em>weakly consistent</em>, like those of the skip list: they never throw
 * {@link java.util.ConcurrentModificationException}, see every entry that existed when they were
 * created and was not changed since, and may or may not see later changes. Stored arrays are
 * handed out without copying: callers must not modify them.
 */
public final class MemoryStore implements BytesStore {

    private static final long NO_OFFSET = -1;

    private final String name;
    private final ConcurrentSkipListMap<byte[], byte[]> map = new ConcurrentSkipListMap<>(ByteKeys.ORDER);
    // The skip list's size() walks the whole list; the single writer keeps the count instead.
    private volatile long count;
    private volatile long changelogOffset = NO_OFFSET;
    private volatile String changelogTopicId;
    private volatile boolean closed;

    private MemoryStore(String name) {
        this.name = name;
    }

    /** An empty, open store. */
    public static MemoryStore create(String name) {
        return new MemoryStore(name);
    }

    @Override
    public String name() {
        return name;
    }

    @Override
    public byte[] get(byte[] key) {
        checkOpen();
        return map.get(key);
    }

    @Override
    public BytesIterator range(byte[] from, byte[] to, boolean reverse) {
        checkOpen();
        if (ByteKeys.isEmptyRange(from, to)) {
            return iterator(map.subMap(from, true, from, false), false);
        }
        return iterator(slice(from, true, to, true), reverse);
    }

    @Override
    public BytesIterator prefix(byte[] prefix) {
        checkOpen();
        return iterator(slice(prefix, true, ByteKeys.prefixEnd(prefix), false), false);
    }

    @Override
    public long approximateCount() {
        checkOpen();
        return count;
    }

    @Override
    public void apply(WriteBatch changes, long offset) {
        checkOpen();
        if (offset < 0) {
            throw new IllegalArgumentException("Negative changelog offset " + offset);
        }
        write(changes);
        changelogOffset = offset;
    }

    /** Removes the keys and ranges from the map; the offset stays. */
    @Override
    public void applyDeletes(WriteBatch deletes) {
        checkOpen();
        if (!deletes.isDeletesOnly()) {
            throw new IllegalArgumentException("applyDeletes takes deletes only; store '" + name + "'");
        }
        write(deletes);
    }

    private void write(WriteBatch changes) {
        long n = count;
        boolean ranges = changes.hasRangeDeletes();
        for (int i = 0; i < changes.size(); i++) {
            byte[] value = changes.value(i);
            byte[] rangeEnd = ranges ? changes.rangeEnd(i) : null;
            if (rangeEnd != null) {
                NavigableMap<byte[], byte[]> range = map.subMap(changes.key(i), true, rangeEnd, false);
                while (range.pollFirstEntry() != null) {
                    n--;
                }
            } else if (value == null) {
                n -= map.remove(changes.key(i)) == null ? 0 : 1;
            } else {
                n += map.put(changes.key(i), value) == null ? 1 : 0;
            }
        }
        count = n;
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
        checkOpen();
        changelogTopicId = java.util.Objects.requireNonNull(topicId, "topicId");
    }

    @Override
    public void clear() {
        checkOpen();
        map.clear();
        count = 0;
        changelogOffset = NO_OFFSET;
        changelogTopicId = null;
    }

    /** Marks the store closed; open iterators fail on their next use. Keeps the data for the GC. */
    @Override
    public void close() {
        closed = true;
    }

    @Override
    public void destroy() {
        close();
        map.clear();
    }

    void checkOpen() {
        if (closed) {
            throw new StoreClosedException(name);
        }
    }

    private NavigableMap<byte[], byte[]> slice(byte[] from, boolean fromInclusive, byte[] to, boolean toInclusive) {
        if (from != null && to != null) {
            return map.subMap(from, fromInclusive, to, toInclusive);
        }
        if (from != null) {
            return map.tailMap(from, fromInclusive);
        }
        return to != null ? map.headMap(to, toInclusive) : map;
    }

    private BytesIterator iterator(NavigableMap<byte[], byte[]> slice, boolean reverse) {
        Iterator<Map.Entry<byte[], byte[]>> entries =
                (reverse ? slice.descendingMap() : slice).entrySet().iterator();
        return new MemoryIterator(this, entries);
    }
}
