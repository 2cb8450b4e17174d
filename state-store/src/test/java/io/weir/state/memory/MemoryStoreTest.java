package io.weir.state.memory;

import static io.weir.state.internal.Bytes.b;
import static io.weir.state.internal.Bytes.batch;
import static io.weir.state.internal.Bytes.entries;
import static org.assertj.core.api.Assertions.assertThat;

import io.weir.state.internal.BytesIterator;
import io.weir.state.internal.BytesStore;
import io.weir.state.internal.BytesStoreContract;
import org.junit.jupiter.api.Test;

class MemoryStoreTest extends BytesStoreContract {

    @Override
    protected BytesStore create(String name) {
        return MemoryStore.create(name);
    }

    @Override
    protected boolean persistent() {
        return false;
    }

    @Override
    protected BytesStore reopen(BytesStore closed) {
        throw new UnsupportedOperationException();
    }

    @Test
    void iteratorsAreWeaklyConsistentAndNeverFailOnConcurrentChanges() {
        BytesStore store = store();
        store.apply(batch("a=1", "c=3", "e=5"), 3);
        try (BytesIterator it = store.all(false)) {
            it.next(); // a
            store.apply(batch("b=2", "d=4", "e=-"), 4);
            // b is behind the iterator, d ahead of it: the skip list shows d; e was removed
            assertThat(entries(it)).containsExactly("c=3", "d=4");
        }
        assertThat(store.get(b("b"))).isNotNull();
    }

    @Test
    void deleteRangeKeepsTheCountExact() {
        BytesStore store = store();
        store.apply(batch("a=1", "b=2", "c=3", "d=4"), 4);
        store.deleteRange(b("b"), b("d"));
        assertThat(store.approximateCount()).isEqualTo(2);
        store.applyDeletes(
                new io.weir.state.internal.WriteBatch().delete(b("a")).delete(b("zz")));
        assertThat(store.approximateCount()).isEqualTo(1);
    }

    @Test
    void iteratorsOpenedBeforeARangeDeleteDoNotShowEntriesDeletedAheadOfThem() {
        BytesStore store = store();
        store.apply(batch("a=1", "c=3", "e=5", "g=7"), 4);
        try (BytesIterator it = store.all(false)) {
            it.next(); // a (the skip list's iterator already holds c)
            store.deleteRange(b("d"), b("f"));
            assertThat(entries(it)).containsExactly("c=3", "g=7");
        }
    }
}
