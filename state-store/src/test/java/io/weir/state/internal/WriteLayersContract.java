package io.weir.state.internal;

import static io.weir.state.internal.Bytes.b;
import static io.weir.state.internal.Bytes.batch;
import static io.weir.state.internal.Bytes.entries;
import static io.weir.state.internal.Bytes.s;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.weir.errors.StoreClosedException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.Random;
import java.util.TreeMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The layers a task writes through, over every {@link BytesStore} implementation:
 * {@link PendingStore} (read-your-writes until commit) and {@link TtlStore} (expiry).
 */
public abstract class WriteLayersContract {

    /** A new, empty, open store. */
    protected abstract BytesStore create(String name);

    private BytesStore store;
    private PendingStore pending;
    private final AtomicLong clock = new AtomicLong(1_000_000);

    @BeforeEach
    public void openStore() {
        store = create("layers");
        pending = new PendingStore(store);
    }

    @AfterEach
    public void closeStore() {
        store.close();
    }

    // ------------------------------------------------------------------------- pending writes

    @Test
    public void readsSeePendingWritesOverCommittedData() {
        store.apply(batch("a=1", "b=2", "c=3"), 3);
        pending.put(b("b"), b("22"));
        pending.delete(b("c"));
        pending.put(b("d"), b("4"));

        assertThat(s(pending.get(b("a")))).isEqualTo("1");
        assertThat(s(pending.get(b("b")))).isEqualTo("22");
        assertThat(pending.get(b("c"))).isNull();
        assertThat(s(pending.get(b("d")))).isEqualTo("4");
        assertThat(entries(pending.all(false))).containsExactly("a=1", "b=22", "d=4");
        assertThat(entries(pending.all(true))).containsExactly("d=4", "b=22", "a=1");
        assertThat(entries(pending.range(b("b"), b("c"), false))).containsExactly("b=22");
        assertThat(entries(pending.range(b("b"), b("c"), true))).containsExactly("b=22");
        assertThat(entries(pending.range(b("c"), b("a"), false))).isEmpty();
        // nothing reached the store yet
        assertThat(entries(store.all(false))).containsExactly("a=1", "b=2", "c=3");
    }

    @Test
    public void mergedIterationMatchesAModelInBothDirections() {
        Random random = new Random(42);
        NavigableMap<String, String> model = new TreeMap<>();
        long offset = 0;
        for (int round = 0; round < 30; round++) {
            for (int i = 0; i < 40; i++) {
                String key = "k" + random.nextInt(60);
                if (random.nextInt(4) == 0) {
                    pending.delete(b(key));
                    model.remove(key);
                } else {
                    String value = "v" + random.nextInt(1000);
                    pending.put(b(key), b(value));
                    model.put(key, value);
                }
            }
            for (int q = 0; q < 10; q++) {
                String from = random.nextInt(5) == 0 ? null : "k" + random.nextInt(70);
                String to = random.nextInt(5) == 0 ? null : "k" + random.nextInt(70);
                boolean reverse = random.nextBoolean();
                assertThat(entries(pending.range(from == null ? null : b(from), to == null ? null : b(to), reverse)))
                        .as("range %s..%s reverse=%s in round %d", from, to, reverse, round)
                        .containsExactlyElementsOf(expected(model, from, to, reverse));
                String prefix = "k" + random.nextInt(7);
                assertThat(entries(pending.prefix(b(prefix))))
                        .containsExactlyElementsOf(model.entrySet().stream()
                                .filter(e -> e.getKey().startsWith(prefix))
                                .map(e -> e.getKey() + "=" + e.getValue())
                                .collect(Collectors.toList()));
            }
            if (random.nextInt(3) == 0) {
                pending.commit(++offset);
                assertThat(entries(store.all(false))).containsExactlyElementsOf(expected(model, null, null, false));
            } else if (random.nextInt(10) == 0) {
                pending.abort();
                model.clear();
                entries(store.all(false)).forEach(kv -> model.put(kv.split("=")[0], kv.split("=")[1]));
            }
        }
    }

    @Test
    public void repeatedWritesOfAKeyFoldIntoOnePendingEntry() {
        pending.put(b("b"), b("1"));
        pending.put(b("a"), b("1"));
        pending.put(b("b"), b("2"));
        pending.delete(b("c"));
        pending.put(b("c"), b("3"));
        pending.delete(b("a"));

        assertThat(pending.pendingCount()).isEqualTo(3);
        List<String> seen = new ArrayList<>();
        pending.forEachPending((k, v) -> seen.add(s(k) + "=" + (v == null ? "<delete>" : s(v))));
        assertThat(seen).containsExactly("a=<delete>", "b=2", "c=3");
    }

    @Test
    public void pendingBytesGrowWithWritesAndResetOnCommit() {
        assertThat(pending.pendingBytes()).isZero();
        pending.put(b("key"), new byte[1000]);
        long one = pending.pendingBytes();
        assertThat(one).isGreaterThanOrEqualTo(1003);
        pending.put(b("key"), new byte[10]); // replaces: shrinks
        assertThat(pending.pendingBytes()).isEqualTo(one - 990);
        pending.put(b("other"), new byte[1000]);
        assertThat(pending.pendingBytes()).isGreaterThan(one);
        pending.commit(1);
        assertThat(pending.pendingBytes()).isZero();
        assertThat(pending.pendingCount()).isZero();
    }

    @Test
    public void commitAppliesPendingWritesWithTheOffsetAndClearsThem() {
        store.apply(batch("a=1", "b=2"), 2);
        pending.put(b("a"), b("11"));
        pending.delete(b("b"));
        pending.put(b("c"), b("3"));
        pending.commit(7);

        assertThat(pending.pendingCount()).isZero();
        assertThat(store.changelogOffset()).hasValue(7);
        assertThat(entries(store.all(false))).containsExactly("a=11", "c=3");
        assertThat(entries(pending.all(false))).containsExactly("a=11", "c=3");
    }

    @Test
    public void abortDropsPendingWrites() {
        store.apply(batch("a=1"), 1);
        pending.put(b("a"), b("2"));
        pending.put(b("b"), b("2"));
        pending.abort();
        assertThat(pending.pendingCount()).isZero();
        assertThat(entries(pending.all(false))).containsExactly("a=1");
        assertThat(store.changelogOffset()).hasValue(1);
    }

    @Test
    public void failedCommitKeepsPendingWrites() {
        pending.put(b("a"), b("1"));
        store.close();
        assertThatThrownBy(() -> pending.commit(1)).isInstanceOf(StoreClosedException.class);
        assertThat(pending.pendingCount()).isEqualTo(1);
    }

    @Test
    public void openIteratorsAreSnapshotsOfPendingWrites() {
        store.apply(batch("a=1", "c=3"), 2);
        pending.put(b("b"), b("2"));
        pending.put(b("d"), b("4"));
        try (BytesIterator it = pending.all(false);
                BytesIterator back = pending.all(true)) {
            assertThat(s(it.next().key())).isEqualTo("a");
            assertThat(s(back.next().key())).isEqualTo("d");
            // change the overlay under the open iterators: add, overwrite, delete in their range
            pending.put(b("bb"), b("new"));
            pending.put(b("c"), b("changed"));
            pending.delete(b("d"));
            pending.delete(b("b"));
            assertThat(entries(it)).containsExactly("b=2", "c=3", "d=4");
            assertThat(entries(back)).containsExactly("c=3", "b=2", "a=1");
        }
        assertThat(entries(pending.all(false))).containsExactly("a=1", "bb=new", "c=changed");
    }

    @Test
    public void droppingACommittedRangeDeletesItFromTheStoreAndTheReadCache() {
        PendingStore cached = new PendingStore(store, 1 << 20);
        store.apply(batch("a=1", "b=2", "c=3", "d=4"), 4);
        assertThat(s(cached.get(b("b")))).isEqualTo("2"); // now in the read cache
        assertThat(s(cached.get(b("d")))).isEqualTo("4");
        cached.dropCommittedRange(b("b"), b("d"));
        assertThat(cached.get(b("b"))).isNull();
        assertThat(s(cached.get(b("d")))).isEqualTo("4");
        assertThat(entries(cached.all(false))).containsExactly("a=1", "d=4");
        assertThat(store.changelogOffset()).hasValue(4);
        assertThat(cached.pendingCount()).isZero(); // nothing for the changelog
    }

    @Test
    public void droppingCommittedKeysAndRangesTogetherForgetsThemInTheReadCache() {
        PendingStore cached = new PendingStore(store, 1 << 20);
        store.apply(batch("a=1", "b=2", "x=9"), 3);
        assertThat(s(cached.get(b("x")))).isEqualTo("9");
        cached.dropCommitted(new WriteBatch().delete(b("x")).deleteRange(b("a"), b("b")));
        assertThat(cached.get(b("x"))).isNull();
        assertThat(entries(cached.all(false))).containsExactly("b=2");
        assertThatThrownBy(() -> cached.dropCommitted(batch("y=1"))).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    public void droppingARangeWithPendingWritesInItIsRefused() {
        store.apply(batch("a=1", "b=2", "c=3"), 3);
        pending.put(b("b"), b("22"));
        assertThatThrownBy(() -> pending.dropCommittedRange(b("a"), b("c")))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("pending writes");
        assertThatThrownBy(() -> pending.dropCommitted(new WriteBatch().delete(b("b"))))
                .isInstanceOf(IllegalStateException.class);
        assertThat(entries(store.all(false))).containsExactly("a=1", "b=2", "c=3"); // nothing dropped
        pending.dropCommittedRange(b("c"), b("d")); // pending writes outside the range are fine
        assertThat(entries(pending.all(false))).containsExactly("a=1", "b=22");
        pending.commit(4);
        pending.dropCommittedRange(b("a"), b("c"));
        assertThat(entries(store.all(false))).isEmpty();
        assertThat(store.changelogOffset()).hasValue(4);
    }

    // ------------------------------------------------------------------------------------- TTL

    @Test
    public void expiredEntriesAreInvisibleToEveryRead() {
        TtlStore ttl = new TtlStore(pending, Duration.ofSeconds(10), clock::get);
        ttl.put(b("a"), b("1"));
        ttl.put(b("b"), b("2"));
        pending.commit(2); // "a" and "b" committed, "c" pending: both layers expire alike
        clock.addAndGet(5_000);
        ttl.put(b("c"), b("3"));
        assertThat(entries(ttl.all(false))).containsExactly("a=1", "b=2", "c=3");

        clock.addAndGet(5_000); // a and b reach their expiry: gone at once
        assertThat(ttl.get(b("a"))).isNull();
        assertThat(s(ttl.get(b("c")))).isEqualTo("3");
        assertThat(entries(ttl.all(false))).containsExactly("c=3");
        assertThat(entries(ttl.all(true))).containsExactly("c=3");
        assertThat(entries(ttl.range(b("a"), b("b"), false))).isEmpty();
        assertThat(entries(ttl.prefix(b("b")))).isEmpty();
        // still stored (and counted) until deleted
        assertThat(store.get(b("a"))).isNotNull();

        clock.addAndGet(5_000);
        assertThat(entries(ttl.all(false))).isEmpty();
    }

    @Test
    public void rewritingAnEntryRenewsItsExpiry() {
        TtlStore ttl = new TtlStore(pending, Duration.ofSeconds(10), clock::get);
        ttl.put(b("a"), b("1"));
        clock.addAndGet(9_000);
        ttl.put(b("a"), b("2"));
        clock.addAndGet(9_000);
        assertThat(s(ttl.get(b("a")))).isEqualTo("2");
    }

    @Test
    public void expiredKeysAreDeletedThroughThePendingWritesAndTheChangelog() {
        TtlStore ttl = new TtlStore(pending, Duration.ofSeconds(10), clock::get);
        ttl.put(b("a"), b("1"));
        ttl.put(b("b"), b("2"));
        clock.addAndGet(1_000);
        ttl.put(b("c"), b("3"));
        pending.commit(3);

        long now = clock.addAndGet(9_500); // a, b expired; c not yet
        List<byte[]> expired = ttl.expiredKeys(now, 100);
        assertThat(expired).extracting(Bytes::s).containsExactly("a", "b");
        expired.forEach(ttl::delete);

        Map<String, String> changelog = new TreeMap<>();
        pending.forEachPending((k, v) -> changelog.put(s(k), v == null ? "<delete>" : s(v)));
        assertThat(changelog).containsExactly(Map.entry("a", "<delete>"), Map.entry("b", "<delete>"));
        pending.commit(5);
        assertThat(store.get(b("a"))).isNull();
        assertThat(TtlCodec.expiresAt(store.get(b("c")))).isEqualTo(1_000_000 + 1_000 + 10_000);
    }

    @Test
    public void expiredKeysSweepResumesWhereItStoppedAndWrapsAround() {
        TtlStore ttl = new TtlStore(pending, Duration.ofSeconds(1), clock::get);
        for (int i = 0; i < 10; i++) {
            ttl.put(b("k" + i), b("v"));
        }
        pending.commit(10);
        long now = clock.addAndGet(2_000);

        List<String> found = new ArrayList<>();
        found.addAll(ttl.expiredKeys(now, 4).stream().map(Bytes::s).collect(Collectors.toList()));
        found.addAll(ttl.expiredKeys(now, 4).stream().map(Bytes::s).collect(Collectors.toList()));
        assertThat(found).containsExactly("k0", "k1", "k2", "k3", "k4", "k5", "k6", "k7");
        // the next sweep finishes the pass, then starts over from the beginning
        assertThat(ttl.expiredKeys(now, 4)).extracting(Bytes::s).containsExactly("k8", "k9");
        assertThat(ttl.expiredKeys(now, 1)).extracting(Bytes::s).containsExactly("k0");
    }

    @Test
    public void ttlRequiresAPositiveDuration() {
        assertThatThrownBy(() -> new TtlStore(pending, Duration.ZERO, clock::get))
                .isInstanceOf(IllegalArgumentException.class);
    }

    private static List<String> expected(NavigableMap<String, String> model, String from, String to, boolean reverse) {
        if (from != null && to != null && from.compareTo(to) > 0) {
            return List.of();
        }
        NavigableMap<String, String> slice = model;
        if (from != null) {
            slice = slice.tailMap(from, true);
        }
        if (to != null) {
            slice = slice.headMap(to, true);
        }
        if (reverse) {
            slice = slice.descendingMap();
        }
        return slice.entrySet().stream()
                .map(e -> e.getKey() + "=" + e.getValue())
                .collect(Collectors.toList());
    }
}
