package io.weir.state.internal;

import static org.assertj.core.api.Assertions.assertThat;

import io.weir.state.memory.MemoryStore;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.Map;
import java.util.Random;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

class ReadCacheTest {

    private static byte[] b(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    private static byte[] key(int i) {
        return b("key-" + i);
    }

    private static byte[] count(long n) {
        return ByteBuffer.allocate(Long.BYTES).putLong(n).array();
    }

    @Test
    void keepsWithinItsBudgetAndGivesEntriesReadAgainASecondChance() {
        long budget = 8 << 10;
        ReadCache cache = new ReadCache(budget);
        int hotHits = 0;
        for (int i = 0; i < 1_000; i++) {
            cache.put(key(1_000 + i), count(i)); // a new key, read once
            assertThat(cache.bytes()).isLessThanOrEqualTo(budget);
            byte[] hot = key(i % 10); // keys 0 to 9 are read again and again, through the cache
            if (cache.get(hot) != null) {
                hotHits++;
            } else {
                cache.put(hot, count(i % 10));
            }
        }
        assertThat(cache.size()).isBetween(50, 200);
        assertThat(hotHits).as("hits of the hot keys, of 1,000 reads").isGreaterThan(900);
        long cold = IntStream.range(1_100, 1_500)
                .filter(i -> cache.get(key(i)) != null)
                .count();
        assertThat(cold).as("keys read once long ago, of 400").isLessThan(20);
    }

    @Test
    void keepsProbeRunsShortWhileEvictingNewKeysInKeyOrder() {
        // Filling a full cache with new keys in key order (a first pass over a large input), each
        // read as absent, then committed: evictions must not pile the entries up in one part of
        // the table, where every probe would walk a long run of occupied slots.
        ReadCache cache = new ReadCache(1 << 20);
        for (int i = 0; i < 200_000; i++) {
            byte[] key = b(String.format("key-%06d", i));
            cache.put(key, PendingStore.TOMBSTONE);
            cache.replaceIfPresent(key, count(1));
        }
        assertThat(cache.size()).isGreaterThan(15_000);
        assertThat(cache.meanProbes()).isLessThan(4.0);
    }

    @Test
    void holdsMoreThanTwiceTheKeysOfALinkedMapOfTheSameBudget() {
        // 4 MiB, the default store.read.cache.bytes, held about 32,000 10-byte keys with long
        // values in the linked map it replaced (counted at 130 bytes an entry).
        ReadCache cache = new ReadCache(4 << 20);
        for (int i = 0; i < 250_000; i++) {
            cache.put(b(String.format("key-%06d", i)), count(i));
        }
        assertThat(cache.size()).isGreaterThan(70_000);
        assertThat(cache.bytes()).isLessThanOrEqualTo(4 << 20);
    }

    @Test
    void anEntryLargerThanTheBudgetIsNotCachedAndEvictsNothing() {
        ReadCache cache = new ReadCache(1 << 10);
        cache.put(b("small"), count(1));
        cache.put(b("large"), new byte[2 << 10]);
        assertThat(cache.get(b("large"))).isNull();
        assertThat(cache.get(b("small"))).isEqualTo(count(1));
    }

    @Test
    void returnsCopiesAndTakesSameLengthValuesInPlace() {
        ReadCache cache = new ReadCache(1 << 20);
        cache.put(b("k"), count(1));
        byte[] read = cache.get(b("k"));
        read[0] = 42; // a caller changing what it read does not change the cache
        assertThat(cache.get(b("k"))).isEqualTo(count(1));
        long bytes = cache.bytes();
        cache.replaceIfPresent(b("k"), count(2));
        assertThat(cache.get(b("k"))).isEqualTo(count(2));
        assertThat(cache.bytes()).isEqualTo(bytes);
        cache.replaceIfPresent(b("k"), b("a longer value"));
        assertThat(cache.get(b("k"))).isEqualTo(b("a longer value"));
        assertThat(cache.bytes()).isGreaterThan(bytes);
        cache.replaceIfPresent(b("other"), count(3)); // not cached: stays out
        assertThat(cache.get(b("other"))).isNull();
    }

    @Test
    void cachesAbsencesAsTheTombstone() {
        ReadCache cache = new ReadCache(1 << 20);
        cache.put(b("gone"), PendingStore.TOMBSTONE);
        assertThat(cache.get(b("gone"))).isSameAs(PendingStore.TOMBSTONE);
        cache.replaceIfPresent(b("gone"), count(7));
        assertThat(cache.get(b("gone"))).isEqualTo(count(7));
        cache.replaceIfPresent(b("gone"), PendingStore.TOMBSTONE);
        assertThat(cache.get(b("gone"))).isSameAs(PendingStore.TOMBSTONE);
    }

    @Test
    void removeRangeForgetsExactlyTheKeysInTheRange() {
        ReadCache cache = new ReadCache(16 << 20);
        for (int i = 0; i < 10_000; i++) {
            cache.put(b(String.format("k%05d", i)), count(i));
        }
        cache.removeRange(b("k02000"), b("k07000"));
        for (int i = 0; i < 10_000; i++) {
            byte[] expected = i >= 2000 && i < 7000 ? null : count(i);
            assertThat(cache.get(b(String.format("k%05d", i)))).as("key %d", i).isEqualTo(expected);
        }
        assertThat(cache.size()).isEqualTo(5_000);
    }

    @Test
    void agreesWithAMapUnderRandomOperationsWithAndWithoutEvictions() {
        for (long budget : new long[] {64 << 20, 16 << 10}) {
            Random random = new Random(budget);
            ReadCache cache = new ReadCache(budget);
            Map<String, byte[]> model = new HashMap<>();
            for (int op = 0; op < 200_000; op++) {
                int k = random.nextInt(3_000);
                byte[] key = key(k);
                switch (random.nextInt(6)) {
                    case 0, 1 -> {
                        byte[] value = random.nextInt(10) == 0 ? PendingStore.TOMBSTONE : count(random.nextInt(100));
                        cache.put(key, value);
                        model.put("key-" + k, value);
                    }
                    case 2 -> {
                        byte[] value = count(random.nextInt(100));
                        cache.replaceIfPresent(key, value);
                        model.computeIfPresent("key-" + k, (x, old) -> value);
                    }
                    case 3 -> {
                        cache.remove(key);
                        model.remove("key-" + k);
                    }
                    default -> {
                        byte[] cached = cache.get(key);
                        byte[] expected = model.get("key-" + k);
                        if (cached == null) {
                            if (expected != null) {
                                assertThat(budget)
                                        .as("a miss without evictions, key %d", k)
                                        .isLessThan(1 << 20);
                            }
                        } else if (PendingStore.isTombstone(expected)) {
                            assertThat(cached).isSameAs(PendingStore.TOMBSTONE);
                        } else {
                            assertThat(cached).as("key %d", k).isEqualTo(expected);
                        }
                    }
                }
                assertThat(cache.bytes()).isLessThanOrEqualTo(budget);
            }
            if (budget > 1 << 20) {
                assertThat(cache.size()).isEqualTo(model.size());
            }
        }
    }

    @Test
    void aPendingStoreWithACacheReadsCommittedValuesAndAbsencesFromIt() {
        MemoryStore committed = MemoryStore.create("s");
        PendingStore store = new PendingStore(committed, 1 << 20);
        assertThat(store.get(b("a"))).isNull(); // cached: absent
        store.put(b("a"), b("1"));
        store.commit(1); // the cached key takes the committed value
        assertThat(store.get(b("a"))).isEqualTo(b("1"));
        assertThat(store.get(b("missing"))).isNull();
        // Another writer changing the committed store is not a supported use, but shows the cache is
        // consulted: a cached absence and a cached value survive it.
        committed.apply(new WriteBatch().put(b("missing"), b("x")).put(b("a"), b("2")), 2);
        assertThat(store.get(b("missing"))).isNull();
        assertThat(store.get(b("a"))).isEqualTo(b("1"));
        // Pending writes win over the cache, and an abort leaves the cache as committed.
        store.delete(b("a"));
        assertThat(store.get(b("a"))).isNull();
        store.abort();
        assertThat(store.get(b("a"))).isEqualTo(b("1"));
    }
}
