package io.weir.state.internal;

import static org.assertj.core.api.Assertions.assertThat;

import io.weir.state.memory.MemoryStore;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

class ReadCacheTest {

    private static byte[] b(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    @Test
    void keepsTheMostRecentlyUsedEntriesWithinItsBudget() {
        ReadCache cache = new ReadCache(3 * (112 + 2));
        cache.put(b("k1"), new byte[0]);
        cache.put(b("k2"), new byte[0]);
        cache.put(b("k3"), new byte[0]);
        assertThat(cache.get(b("k1"))).isNotNull();   // k1 is now the most recent
        cache.put(b("k4"), new byte[0]);               // evicts k2, the least recent
        assertThat(cache.get(b("k2"))).isNull();
        assertThat(cache.get(b("k1"))).isNotNull();
        assertThat(cache.bytes()).isLessThanOrEqualTo(3 * (112 + 2));
    }

    @Test
    void aPendingStoreWithACacheReadsCommittedValuesAndAbsencesFromIt() {
        MemoryStore committed = MemoryStore.create("s");
        PendingStore store = new PendingStore(committed, 1 << 20);
        assertThat(store.get(b("a"))).isNull();            // cached: absent
        store.put(b("a"), b("1"));
        store.commit(1);                                    // the cached key takes the committed value
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
