package io.weir.internal.state;

import io.weir.common.KeyValue;
import io.weir.serde.Serde;
import io.weir.state.KeyValueIterator;
import io.weir.state.KeyValueStore;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * The history of a versioned table: per key, its values with the time each became valid (the
 * timestamp of the record that wrote it), each valid until the next version of its key; a
 * tombstone is a version that ends validity. Like Kafka Streams' {@code VersionedKeyValueStore}
 * (KIP-889), over one of Weir's key-value stores of bytes, so it has a changelog, commits with the
 * task's transaction and restores exactly with no code of its own.
 *
 * <p>Time: the store's <em>observed time</em> is the largest timestamp put into it (kept in the
 * store itself, so it restores with it), as Kafka Streams' observed stream time; not the task's
 * watermark, which a slow or idle other input holds back and which would let the history grow
 * without bound. The store answers every query as of {@code t >= observed - historyRetention}
 * exactly; a query older than that gets the key's newest version if it was valid then already (the
 * newest version never expires), else {@code null}; a put older than that is refused.
 *
 * <p>Layout: {@code [key length: 4][key][valid from: 8, sign bit flipped] -> [0][value]}, or
 * {@code -> [1]} for a tombstone; the unsigned byte order of the store is thus by key, then by time,
 * and the version valid at {@code t} is the last entry of the key at or before {@code t}: one
 * reverse range read. The observed time is the entry {@code [FF FF FF FF]}, which no key reaches.
 *
 * <p>Pruning: a version is needed while it is valid at some time a query may still ask,
 * {@code validTo > observed - historyRetention}. A put prunes its key's older versions; a
 * {@link #sweep} (run by the table's processor at each commit) walks the rest of the store a
 * bounded number of entries at a time, for keys no longer written. Used by one task's thread only.
 */
public final class VersionedStore<K, V> {

    /** What a put did. */
    public enum PutResult {
        /** The version is the key's newest: the table's current value changed. */
        LATEST,
        /** An out-of-order version, older than the key's newest: the history changed, the current value did not. */
        HISTORY,
        /** Older than the history retention behind the observed time: not put. */
        EXPIRED
    }

    private static final byte[] OBSERVED_KEY = {(byte) 0xFF, (byte) 0xFF, (byte) 0xFF, (byte) 0xFF};
    private static final byte VALUE = 0;
    private static final byte TOMBSTONE = 1;

    private final KeyValueStore<byte[], byte[]> bytes;
    private final Serde<K> keySerde;
    private final Serde<V> valueSerde;
    private final String topic;
    private final long historyRetentionMs;
    /** Where the next {@link #sweep} starts; {@code null} for the beginning. */
    private byte[] sweepFrom;

    public VersionedStore(
            KeyValueStore<byte[], byte[]> bytes,
            Serde<K> keySerde,
            Serde<V> valueSerde,
            String topic,
            long historyRetentionMs) {
        this.bytes = bytes;
        this.keySerde = keySerde;
        this.valueSerde = valueSerde;
        this.topic = topic;
        this.historyRetentionMs = historyRetentionMs;
    }

    /** Starts the next {@link #sweep} from the beginning (after an aborted commit). */
    public void reload() {
        sweepFrom = null;
    }

    /**
     * The largest timestamp put, {@link Long#MIN_VALUE} before the first put. Read from the store
     * each time, so that every view of one store (the table's, a join's) agrees.
     */
    public long observedTime() {
        byte[] b = bytes.get(OBSERVED_KEY);
        return b == null ? Long.MIN_VALUE : ByteBuffer.wrap(b).getLong();
    }

    /** The earliest time a query is answered for: {@code observed - historyRetention}. */
    public long oldestQueryable() {
        return minus(observedTime(), historyRetentionMs);
    }

    /**
     * Puts {@code value} (a {@code null} for a tombstone) as {@code key}'s version valid from
     * {@code timestamp}, replacing a version of that same time; prunes the key's versions no query
     * can reach any more.
     */
    public PutResult put(K key, V value, long timestamp) {
        if (timestamp < oldestQueryable()) {
            return PutResult.EXPIRED;
        }
        if (timestamp > observedTime()) {
            bytes.put(
                    OBSERVED_KEY,
                    ByteBuffer.allocate(Long.BYTES).putLong(timestamp).array());
        }
        byte[] k = keySerde.serialize(topic, key);
        List<byte[]> versions = versionKeys(k);
        boolean latest = versions.isEmpty() || validFrom(versions.get(versions.size() - 1)) <= timestamp;
        byte[] composite = versionKey(k, timestamp);
        bytes.put(composite, encode(value));
        if (!latest) {
            versions.add(composite);
            versions.sort(Arrays::compareUnsigned);
        } else {
            versions.removeIf(v -> Arrays.equals(v, composite));
            versions.add(composite);
        }
        prune(versions, value == null ? null : composite);
        return latest ? PutResult.LATEST : PutResult.HISTORY;
    }

    /**
     * The value of {@code key} valid at {@code asOf}: the latest version at or before it, unless a
     * tombstone; {@code null} when there is none. Older than the history retention, only the key's
     * newest version answers (it never expires, as in Kafka Streams): its value if it was valid at
     * {@code asOf} already, else {@code null}, whatever older versions are still stored.
     */
    public V get(K key, long asOf) {
        byte[] k = keySerde.serialize(topic, key);
        byte[] upper = asOf < oldestQueryable() ? versionKey(k, Long.MAX_VALUE) : versionKey(k, asOf);
        try (KeyValueIterator<byte[], byte[]> it = bytes.reverseRange(versionKey(k, Long.MIN_VALUE), upper)) {
            if (!it.hasNext()) {
                return null;
            }
            KeyValue<byte[], byte[]> found = it.next();
            return validFrom(found.key()) <= asOf ? decode(found.value()) : null;
        }
    }

    /** Every version of {@code key} the store holds, oldest first: (valid from, value or {@code null}). */
    public List<KeyValue<Long, V>> versions(K key) {
        byte[] k = keySerde.serialize(topic, key);
        List<KeyValue<Long, V>> out = new ArrayList<>();
        try (KeyValueIterator<byte[], byte[]> it =
                bytes.range(versionKey(k, Long.MIN_VALUE), versionKey(k, Long.MAX_VALUE))) {
            while (it.hasNext()) {
                KeyValue<byte[], byte[]> e = it.next();
                out.add(KeyValue.of(validFrom(e.key()), decode(e.value())));
            }
        }
        return out;
    }

    /**
     * Prunes up to {@code maxEntries} entries' worth of the store, from where the last sweep
     * stopped, wrapping around at the end; returns how many versions it deleted.
     */
    public int sweep(int maxEntries) {
        long oldest = oldestQueryable();
        int deleted = 0;
        int seen = 0;
        byte[] previous = null;
        byte[] previousValue = null;
        List<byte[]> doomed = new ArrayList<>();
        boolean ended = true;
        try (KeyValueIterator<byte[], byte[]> it = bytes.range(sweepFrom, null)) {
            while (it.hasNext()) {
                KeyValue<byte[], byte[]> e = it.next();
                if (Arrays.equals(e.key(), OBSERVED_KEY)) {
                    break;
                }
                if (seen++ == maxEntries) {
                    ended = false; // e is looked at again next time, after previous
                    break;
                }
                if (previous != null) {
                    if (sameKey(previous, e.key())) {
                        if (validFrom(e.key()) <= oldest) {
                            doomed.add(previous); // valid only before the oldest time a query may ask
                        }
                    } else if (previousValue[0] == TOMBSTONE && validFrom(previous) <= oldest) {
                        doomed.add(previous); // the key's newest is a tombstone nothing can query
                    }
                }
                previous = e.key();
                previousValue = e.value();
            }
        }
        if (ended && previous != null && previousValue[0] == TOMBSTONE && validFrom(previous) <= oldest) {
            doomed.add(previous);
        }
        // the last entry seen is looked at again next time, with its successor
        sweepFrom = ended ? null : previous;
        for (byte[] d : doomed) {
            bytes.delete(d);
            deleted++;
        }
        return deleted;
    }

    /** Deletes the versions of one key (sorted, oldest first) that no query can reach. */
    private void prune(List<byte[]> versions, byte[] keep) {
        long oldest = oldestQueryable();
        for (int i = 0; i + 1 < versions.size(); i++) {
            if (validFrom(versions.get(i + 1)) <= oldest) {
                bytes.delete(versions.get(i));
            }
        }
        byte[] newest = versions.get(versions.size() - 1);
        if (newest != keep && validFrom(newest) <= oldest && decodeIsTombstone(bytes.get(newest))) {
            bytes.delete(newest);
        }
    }

    private List<byte[]> versionKeys(byte[] k) {
        List<byte[]> keys = new ArrayList<>();
        try (KeyValueIterator<byte[], byte[]> it =
                bytes.range(versionKey(k, Long.MIN_VALUE), versionKey(k, Long.MAX_VALUE))) {
            while (it.hasNext()) {
                keys.add(it.next().key());
            }
        }
        return keys;
    }

    private byte[] encode(V value) {
        if (value == null) {
            return new byte[] {TOMBSTONE};
        }
        byte[] v = valueSerde.serialize(topic, value);
        byte[] out = new byte[v.length + 1];
        out[0] = VALUE;
        System.arraycopy(v, 0, out, 1, v.length);
        return out;
    }

    private V decode(byte[] stored) {
        if (stored[0] == TOMBSTONE) {
            return null;
        }
        return valueSerde.deserialize(topic, Arrays.copyOfRange(stored, 1, stored.length));
    }

    private static boolean decodeIsTombstone(byte[] stored) {
        return stored != null && stored[0] == TOMBSTONE;
    }

    static byte[] versionKey(byte[] key, long validFrom) {
        byte[] composite = new byte[4 + key.length + Long.BYTES];
        ByteBuffer.wrap(composite).putInt(key.length).put(key);
        WindowKeys.writeTime(composite, 4 + key.length, validFrom);
        return composite;
    }

    static long validFrom(byte[] composite) {
        return WindowKeys.readTime(composite, composite.length - Long.BYTES);
    }

    private static boolean sameKey(byte[] a, byte[] b) {
        return a.length == b.length && Arrays.equals(a, 0, a.length - Long.BYTES, b, 0, b.length - Long.BYTES);
    }

    private static long minus(long a, long b) {
        long r = a - b;
        return ((a ^ b) & (a ^ r)) < 0 ? Long.MIN_VALUE : r;
    }
}
