package io.weir.state.internal;

import java.util.Arrays;

/**
 * Committed entries of one store kept on the heap within a byte budget, the least recently used
 * approximately first out (a CLOCK policy: an entry read since an eviction last passed over it
 * gets a second chance). It only ever holds what the committed store holds (filled from reads of
 * it and from commits into it), so commits never need to invalidate it; only deletes that bypass
 * the pending writes ({@link PendingStore#dropCommitted}) do, with {@link #remove} and
 * {@link #removeRange}. A value may be the {@link PendingStore} tombstone, recording that the key
 * is absent. Not thread-safe: owned by the store's task.
 *
 * <p>Why not a {@code LinkedHashMap}: a large store's reads miss a cache that holds few of its keys,
 * so entries per byte is what decides its use. A linked map entry with a key wrapper and two arrays
 * costs about 160 bytes for a 10-byte key and a long; here an entry is one array holding key and
 * value (40 bytes for those) plus its slot in an open-addressing table (9 bytes, at most 60% full),
 * so the same budget holds more than twice the keys, and a lookup touches two arrays, not five
 * objects.
 */
final class ReadCache {

    /** An array's header, as the budget counts it (a 64-bit JVM with compressed references). */
    private static final int ARRAY_HEADER = 16;
    /** The entry's own header: the key's length, with {@link #ABSENT_FLAG} for a cached absence. */
    private static final int ENTRY_HEADER = Integer.BYTES;

    private static final int ABSENT_FLAG = 1 << 31;
    /** A slot: the key's hash, the entry reference and the CLOCK bit. */
    private static final int SLOT_BYTES = Integer.BYTES + Integer.BYTES + 1;

    private static final int MIN_CAPACITY = 16;
    /** Linear probing stays short up to this load: on average under 2 probes for a hit, 4 for a miss. */
    private static final double MAX_LOAD = 0.6;

    private final long maxBytes;
    private int[] hashes = new int[0];
    private byte[][] entries = new byte[0][];
    private boolean[] referenced = new boolean[0];
    private int size;
    private int random = 0x2545F491;
    /** Bytes of the entries, plus those of the table's slots. */
    private long bytes;

    ReadCache(long maxBytes) {
        this.maxBytes = maxBytes;
    }

    boolean enabled() {
        return maxBytes > 0;
    }

    /** The cached value (a copy), the {@link PendingStore} tombstone for a cached absence, or null. */
    byte[] get(byte[] key) {
        if (size == 0) {
            return null;
        }
        int slot = find(key, hash(key));
        if (slot < 0) {
            return null;
        }
        referenced[slot] = true;
        byte[] entry = entries[slot];
        int header = header(entry);
        if ((header & ABSENT_FLAG) != 0) {
            return PendingStore.TOMBSTONE;
        }
        return Arrays.copyOfRange(entry, ENTRY_HEADER + header, entry.length);
    }

    /** Caches {@code value} for {@code key}, evicting others to stay within the budget. */
    void put(byte[] key, byte[] value) {
        int hash = hash(key);
        int slot = size == 0 ? -1 : find(key, hash);
        if (slot >= 0) {
            referenced[slot] = true; // before replace: its evictions may move the entry, bit and all
            replace(slot, key, value);
            return;
        }
        if (footprint(entryLength(key, value)) + SLOT_BYTES * (long) MIN_CAPACITY > maxBytes) {
            return; // could never fit: caching it would only evict everything else
        }
        if (size + 1 > (int) (entries.length * MAX_LOAD)) {
            grow();
        }
        slot = hash & (entries.length - 1);
        while (entries[slot] != null) {
            slot = (slot + 1) & (entries.length - 1);
        }
        hashes[slot] = hash;
        entries[slot] = entry(key, value);
        referenced[slot] = false; // a key read once goes before one read again
        size++;
        bytes += footprint(entries[slot].length);
        evictOverBudget(slot);
    }

    /** Replaces the value of a cached key; a key not cached stays out (no eviction for it). */
    void replaceIfPresent(byte[] key, byte[] value) {
        if (size == 0) {
            return;
        }
        int slot = find(key, hash(key));
        if (slot >= 0) {
            replace(slot, key, value);
        }
    }

    /** Forgets {@code key}. */
    void remove(byte[] key) {
        if (size == 0) {
            return;
        }
        int slot = find(key, hash(key));
        if (slot >= 0) {
            delete(slot, -1);
        }
    }

    /** Forgets every key {@code k} with {@code from <= k < toExclusive}; walks the whole cache. */
    void removeRange(byte[] from, byte[] toExclusive) {
        int slot = 0;
        while (size > 0 && slot < entries.length) {
            byte[] entry = entries[slot];
            if (entry != null && inRange(entry, from, toExclusive)) {
                delete(slot, -1); // may move a later entry into this slot: look at it again
            } else {
                slot++;
            }
        }
    }

    /** The bytes the budget counts: entries and the table's slots. */
    long bytes() {
        return bytes;
    }

    int size() {
        return size;
    }

    private int find(byte[] key, int hash) {
        int mask = entries.length - 1;
        int slot = hash & mask;
        byte[] entry;
        while ((entry = entries[slot]) != null) {
            if (hashes[slot] == hash && keyEquals(entry, key)) {
                return slot;
            }
            slot = (slot + 1) & mask;
        }
        return -1;
    }

    private void replace(int slot, byte[] key, byte[] value) {
        byte[] old = entries[slot];
        boolean absent = PendingStore.isTombstone(value);
        boolean wasAbsent = (header(old) & ABSENT_FLAG) != 0;
        if (!absent && !wasAbsent && old.length == entryLength(key, value)) {
            // Same length (a counter, a fixed-size aggregate): overwrite in place, no new array.
            System.arraycopy(value, 0, old, ENTRY_HEADER + key.length, value.length);
            return;
        }
        byte[] entry = entry(key, value);
        entries[slot] = entry;
        bytes += footprint(entry.length) - footprint(old.length);
        evictOverBudget(slot);
    }

    /**
     * Evicts until the entries fit the budget; never evicts {@code keep}. Each eviction starts at a
     * random slot and moves forward like a CLOCK hand: an entry read since a hand last passed it is
     * passed over once (its bit cleared), the first other one goes. Why not one hand going round:
     * with linear probing, evictions that follow the slot order empty the table behind the hand and
     * leave it full ahead of it, where probe runs grow long (filling a full cache with new keys cost
     * 20 µs a key, against 0.6 µs with random starts, which keep the free slots spread out).
     */
    private void evictOverBudget(int keep) {
        int mask = entries.length - 1;
        while (bytes > maxBytes && size > 1) {
            int slot = nextRandom() & mask;
            while (true) {
                if (entries[slot] == null || slot == keep) {
                    slot = (slot + 1) & mask;
                } else if (referenced[slot]) {
                    referenced[slot] = false;
                    slot = (slot + 1) & mask;
                } else {
                    keep = delete(slot, keep);
                    break;
                }
            }
        }
    }

    /** xorshift: cheap, and deterministic per cache, so tests see the same evictions every time. */
    private int nextRandom() {
        int x = random;
        x ^= x << 13;
        x ^= x >>> 17;
        x ^= x << 5;
        random = x;
        return x;
    }

    /** The mean distance of the entries from their home slots, plus one: a found key's probes. */
    double meanProbes() {
        if (size == 0) {
            return 0;
        }
        int mask = entries.length - 1;
        long probes = 0;
        for (int slot = 0; slot < entries.length; slot++) {
            if (entries[slot] != null) {
                probes += ((slot - (hashes[slot] & mask)) & mask) + 1;
            }
        }
        return (double) probes / size;
    }

    /**
     * Empties {@code slot}, shifting later entries of its probe run back so every entry stays
     * reachable from its home slot (no deletion markers). Returns where the entry that was in slot
     * {@code track} is now.
     */
    private int delete(int slot, int track) {
        bytes -= footprint(entries[slot].length);
        size--;
        int mask = entries.length - 1;
        int hole = slot;
        int tracked = track;
        int next = hole;
        while (true) {
            next = (next + 1) & mask;
            if (entries[next] == null) {
                break;
            }
            int home = hashes[next] & mask;
            // The entry at next may fill the hole if its home is not cyclically in (hole, next].
            boolean homeBetween = hole <= next ? hole < home && home <= next : hole < home || home <= next;
            if (!homeBetween) {
                hashes[hole] = hashes[next];
                entries[hole] = entries[next];
                referenced[hole] = referenced[next];
                if (next == track) {
                    tracked = hole;
                }
                hole = next;
            }
        }
        entries[hole] = null;
        referenced[hole] = false;
        return tracked;
    }

    private void grow() {
        int capacity = Math.max(MIN_CAPACITY, entries.length * 2);
        int[] oldHashes = hashes;
        byte[][] oldEntries = entries;
        boolean[] oldReferenced = referenced;
        hashes = new int[capacity];
        entries = new byte[capacity][];
        referenced = new boolean[capacity];
        int mask = capacity - 1;
        for (int i = 0; i < oldEntries.length; i++) {
            if (oldEntries[i] != null) {
                int slot = oldHashes[i] & mask;
                while (entries[slot] != null) {
                    slot = (slot + 1) & mask;
                }
                hashes[slot] = oldHashes[i];
                entries[slot] = oldEntries[i];
                referenced[slot] = oldReferenced[i];
            }
        }
        bytes += (long) (capacity - oldEntries.length) * SLOT_BYTES;
    }

    private static byte[] entry(byte[] key, byte[] value) {
        boolean absent = PendingStore.isTombstone(value);
        byte[] entry = new byte[entryLength(key, value)];
        int header = key.length | (absent ? ABSENT_FLAG : 0);
        entry[0] = (byte) (header >>> 24);
        entry[1] = (byte) (header >>> 16);
        entry[2] = (byte) (header >>> 8);
        entry[3] = (byte) header;
        System.arraycopy(key, 0, entry, ENTRY_HEADER, key.length);
        System.arraycopy(value, 0, entry, ENTRY_HEADER + key.length, entry.length - ENTRY_HEADER - key.length);
        return entry;
    }

    private static int header(byte[] entry) {
        return (entry[0] & 0xff) << 24 | (entry[1] & 0xff) << 16 | (entry[2] & 0xff) << 8 | (entry[3] & 0xff);
    }

    private static boolean keyEquals(byte[] entry, byte[] key) {
        return (header(entry) & ~ABSENT_FLAG) == key.length
                && Arrays.equals(entry, ENTRY_HEADER, ENTRY_HEADER + key.length, key, 0, key.length);
    }

    private static boolean inRange(byte[] entry, byte[] from, byte[] toExclusive) {
        int keyLength = header(entry) & ~ABSENT_FLAG;
        int keyEnd = ENTRY_HEADER + keyLength;
        return Arrays.compareUnsigned(entry, ENTRY_HEADER, keyEnd, from, 0, from.length) >= 0
                && Arrays.compareUnsigned(entry, ENTRY_HEADER, keyEnd, toExclusive, 0, toExclusive.length) < 0;
    }

    private static int hash(byte[] key) {
        int h = Arrays.hashCode(key) * 0x9E3779B9; // spread the polynomial hash into the low bits
        return h ^ (h >>> 16);
    }

    /** The length of the entry array for {@code key} and {@code value} (a cached absence holds no value). */
    private static int entryLength(byte[] key, byte[] value) {
        return ENTRY_HEADER + key.length + (PendingStore.isTombstone(value) ? 0 : value.length);
    }

    /** What an entry array of {@code length} bytes takes on the heap: header and padding included. */
    private static long footprint(int length) {
        return (ARRAY_HEADER + length + 7) & ~7L;
    }
}
