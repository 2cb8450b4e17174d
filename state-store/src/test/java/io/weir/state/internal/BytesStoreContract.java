package io.weir.state.internal;

import static io.weir.state.internal.Bytes.b;
import static io.weir.state.internal.Bytes.batch;
import static io.weir.state.internal.Bytes.entries;
import static io.weir.state.internal.Bytes.s;
import static io.weir.state.internal.Bytes.u;
import static io.weir.state.internal.Bytes.unsignedKeys;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.weir.errors.StoreClosedException;
import java.util.ArrayList;
import java.util.List;
import java.util.NoSuchElementException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The contract of {@link BytesStore}, run against every implementation by a subclass that says how
 * to create (and, for persistent stores, reopen) a store.
 */
public abstract class BytesStoreContract {

    private final List<BytesStore> opened = new ArrayList<>();

    /** A new, empty, open store. */
    protected abstract BytesStore create(String name);

    /** Whether a closed store can be opened again with its data (persistent stores). */
    protected abstract boolean persistent();

    /** Opens again the store {@code closed} was (only called if {@link #persistent()}). */
    protected abstract BytesStore reopen(BytesStore closed);

    protected BytesStore store() {
        BytesStore store = create("store-" + opened.size());
        opened.add(store);
        return store;
    }

    @AfterEach
    public void closeStores() {
        opened.forEach(BytesStore::close);
    }

    @Test
    public void newStoreIsEmptyAndHasNoChangelogOffset() {
        BytesStore store = store();
        assertThat(store.get(b("a"))).isNull();
        assertThat(entries(store.all(false))).isEmpty();
        assertThat(store.approximateCount()).isZero();
        assertThat(store.changelogOffset()).isEmpty();
    }

    @Test
    public void appliedPutsAreReadBackAndDeletesRemoveThem() {
        BytesStore store = store();
        store.apply(batch("a=1", "b=2", "c=3"), 3);
        assertThat(s(store.get(b("b")))).isEqualTo("2");
        store.apply(batch("b=-", "c=33"), 5);
        assertThat(store.get(b("b"))).isNull();
        assertThat(entries(store.all(false))).containsExactly("a=1", "c=33");
    }

    @Test
    public void laterWriteOfAKeyInOneBatchWins() {
        BytesStore store = store();
        store.apply(batch("a=1", "a=2", "b=1", "b=-", "c=-", "c=3"), 6);
        assertThat(entries(store.all(false))).containsExactly("a=2", "c=3");
    }

    @Test
    public void emptyValuesAreValuesNotDeletes() {
        BytesStore store = store();
        store.apply(new WriteBatch().put(b("a"), new byte[0]), 1);
        assertThat(store.get(b("a"))).isEmpty();
        assertThat(entries(store.all(false))).containsExactly("a=");
    }

    @Test
    public void keysAreOrderedAsUnsignedBytesWithPrefixesFirst() {
        BytesStore store = store();
        WriteBatch batch = new WriteBatch();
        for (byte[] key : List.of(u(0xFF), u(0x80), u(0x7F), u(0x00), u(0x01, 0x02), u(0x01), u(0xFF, 0x00))) {
            batch.put(key, b("v"));
        }
        store.apply(batch, 1);
        List<List<Integer>> ascending = List.of(
                List.of(0x00),
                List.of(0x01),
                List.of(0x01, 0x02),
                List.of(0x7F),
                List.of(0x80),
                List.of(0xFF),
                List.of(0xFF, 0x00));
        assertThat(unsignedKeys(store.all(false))).containsExactlyElementsOf(ascending);
        assertThat(unsignedKeys(store.all(true))).containsExactlyElementsOf(reversed(ascending));
    }

    @Test
    public void rangeBoundsAreInclusiveAndNullIsOpen() {
        BytesStore store = storeWithLetters();
        assertThat(entries(store.range(b("b"), b("d"), false))).containsExactly("b=2", "d=4");
        assertThat(entries(store.range(b("bb"), b("dd"), false))).containsExactly("d=4");
        assertThat(entries(store.range(null, b("b"), false))).containsExactly("a=1", "b=2");
        assertThat(entries(store.range(b("d"), null, false))).containsExactly("d=4", "f=6");
        assertThat(entries(store.range(null, null, false))).containsExactly("a=1", "b=2", "d=4", "f=6");
        assertThat(entries(store.range(b("c"), b("c"), false))).isEmpty();
        assertThat(entries(store.range(b("d"), b("d"), false))).containsExactly("d=4");
    }

    @Test
    public void reverseRangeReturnsTheSameEntriesDescending() {
        BytesStore store = storeWithLetters();
        assertThat(entries(store.range(b("b"), b("d"), true))).containsExactly("d=4", "b=2");
        assertThat(entries(store.range(b("bb"), b("ee"), true))).containsExactly("d=4");
        assertThat(entries(store.range(null, b("b"), true))).containsExactly("b=2", "a=1");
        assertThat(entries(store.range(b("d"), null, true))).containsExactly("f=6", "d=4");
        assertThat(entries(store.all(true))).containsExactly("f=6", "d=4", "b=2", "a=1");
    }

    @Test
    public void rangeWithFromAfterToIsEmpty() {
        BytesStore store = storeWithLetters();
        assertThat(entries(store.range(b("d"), b("b"), false))).isEmpty();
        assertThat(entries(store.range(b("d"), b("b"), true))).isEmpty();
    }

    @Test
    public void prefixScanReturnsExactlyTheKeysWithThePrefix() {
        BytesStore store = store();
        store.apply(batch("user:1=a", "user:10=b", "user:2=c", "user;=d", "use=e", "order:1=f"), 1);
        assertThat(entries(store.prefix(b("user:")))).containsExactly("user:1=a", "user:10=b", "user:2=c");
        assertThat(entries(store.prefix(b("user:1")))).containsExactly("user:1=a", "user:10=b");
        assertThat(entries(store.prefix(b("none")))).isEmpty();
        assertThat(entries(store.prefix(new byte[0]))).hasSize(6);
    }

    @Test
    public void prefixScanHandlesPrefixesEndingInFf() {
        BytesStore store = store();
        WriteBatch batch = new WriteBatch();
        for (byte[] key : List.of(
                u(0x01, 0xFE),
                u(0x01, 0xFF),
                u(0x01, 0xFF, 0x00),
                u(0x01, 0xFF, 0xFF),
                u(0x02),
                u(0xFF),
                u(0xFF, 0xFF, 0x01))) {
            batch.put(key, b("v"));
        }
        store.apply(batch, 1);
        assertThat(unsignedKeys(store.prefix(u(0x01, 0xFF))))
                .containsExactly(List.of(0x01, 0xFF), List.of(0x01, 0xFF, 0x00), List.of(0x01, 0xFF, 0xFF));
        assertThat(unsignedKeys(store.prefix(u(0xFF, 0xFF)))).containsExactly(List.of(0xFF, 0xFF, 0x01));
        assertThat(unsignedKeys(store.prefix(u(0xFF)))).hasSize(2);
    }

    @Test
    public void peekNextKeyShowsTheNextKeyWithoutMoving() {
        BytesStore store = storeWithLetters();
        try (BytesIterator it = store.range(b("b"), null, false)) {
            assertThat(s(it.peekNextKey())).isEqualTo("b");
            assertThat(s(it.peekNextKey())).isEqualTo("b");
            assertThat(s(it.next().key())).isEqualTo("b");
            assertThat(s(it.peekNextKey())).isEqualTo("d");
            it.next();
            it.next();
            assertThat(it.hasNext()).isFalse();
            assertThatThrownBy(it::peekNextKey).isInstanceOf(NoSuchElementException.class);
            assertThatThrownBy(it::next).isInstanceOf(NoSuchElementException.class);
        }
    }

    @Test
    public void approximateCountFollowsPutsAndDeletes() {
        BytesStore store = store();
        WriteBatch batch = new WriteBatch();
        for (int i = 0; i < 1000; i++) {
            batch.put(b("key-" + i), b("v"));
        }
        store.apply(batch, 1000);
        assertThat(store.approximateCount()).isBetween(900L, 1100L);
        WriteBatch deletes = new WriteBatch();
        for (int i = 0; i < 500; i++) {
            deletes.delete(b("key-" + i));
        }
        store.apply(deletes, 1500);
        assertThat(store.approximateCount()).isBetween(400L, 600L);
    }

    @Test
    public void applyStoresTheChangelogOffsetWithTheData() {
        BytesStore store = store();
        store.apply(batch("a=1"), 10);
        assertThat(store.changelogOffset()).hasValue(10);
        store.apply(new WriteBatch(), 12); // a commit with nothing for this store still moves it
        assertThat(store.changelogOffset()).hasValue(12);
        assertThat(entries(store.all(false))).containsExactly("a=1");
        assertThatThrownBy(() -> store.apply(new WriteBatch(), -1)).isInstanceOf(IllegalArgumentException.class);
        assertThat(store.changelogOffset()).hasValue(12);
    }

    @Test
    public void clearRemovesEveryEntryAndTheOffset() {
        BytesStore store = storeWithLetters();
        store.clear();
        assertThat(entries(store.all(false))).isEmpty();
        assertThat(store.get(b("a"))).isNull();
        assertThat(store.changelogOffset()).isEmpty();
        store.apply(batch("z=26"), 1);
        assertThat(entries(store.all(false))).containsExactly("z=26");
    }

    @Test
    public void deleteRangeDeletesTheHalfOpenRangeAndKeepsTheOffset() {
        BytesStore store = storeWithLetters();
        store.deleteRange(b("b"), b("f"));
        assertThat(entries(store.all(false))).containsExactly("a=1", "f=6");
        assertThat(store.get(b("d"))).isNull();
        assertThat(store.changelogOffset()).hasValue(4);
    }

    @Test
    public void deleteRangeBoundsNeedNotBeKeysAndCoverExtensionsOfTheStart() {
        BytesStore store = store();
        store.apply(batch("a=1", "ab=2", "abc=3", "b=4", "ba=5"), 5);
        store.deleteRange(b("a"), b("b")); // "b" itself stays: the end is exclusive
        assertThat(entries(store.all(false))).containsExactly("b=4", "ba=5");
        store.deleteRange(b("az"), b("b\0"));
        assertThat(entries(store.all(false))).containsExactly("ba=5");
    }

    @Test
    public void emptyOrInvertedRangeDeletesNothing() {
        BytesStore store = storeWithLetters();
        store.deleteRange(b("b"), b("b"));
        store.deleteRange(b("d"), b("a"));
        store.deleteRange(b("c"), b("d")); // nothing in it
        assertThat(entries(store.all(false))).containsExactly("a=1", "b=2", "d=4", "f=6");
        assertThat(store.changelogOffset()).hasValue(4);
    }

    @Test
    public void deleteRangeOnANewStoreLeavesItWithoutOffset() {
        BytesStore store = store();
        store.deleteRange(b("a"), b("z"));
        assertThat(store.changelogOffset()).isEmpty();
        assertThat(entries(store.all(false))).isEmpty();
    }

    @Test
    public void applyDeletesTakesPointAndRangeDeletesAtomicallyAndRefusesPuts() {
        BytesStore store = storeWithLetters();
        store.applyDeletes(new WriteBatch().delete(b("a")).deleteRange(b("c"), b("z")));
        assertThat(entries(store.all(false))).containsExactly("b=2");
        assertThat(store.changelogOffset()).hasValue(4);
        assertThatThrownBy(() -> store.applyDeletes(batch("x=1"))).isInstanceOf(IllegalArgumentException.class);
        assertThat(store.get(b("x"))).isNull();
    }

    @Test
    public void rangeDeletesInABatchApplyInTheirPlaceInTheOrder() {
        BytesStore store = storeWithLetters();
        WriteBatch batch = new WriteBatch()
                .put(b("c"), b("3")) // deleted by the range that follows
                .deleteRange(b("b"), b("e"))
                .put(b("bb"), b("22")); // written after it: stays
        store.apply(batch, 9);
        assertThat(entries(store.all(false))).containsExactly("a=1", "bb=22", "f=6");
        assertThat(store.changelogOffset()).hasValue(9);
    }

    @Test
    public void iteratorsOpenedBeforeARangeDeleteKeepWorking() {
        BytesStore store = storeWithLetters();
        try (BytesIterator it = store.all(false)) {
            assertThat(s(it.next().key())).isEqualTo("a");
            store.deleteRange(b("a"), b("e"));
            List<String> rest = entries(it); // snapshot (RocksDB) or weakly consistent (memory)
            assertThat(rest).endsWith("f=6").isSubsetOf("b=2", "d=4", "f=6");
        }
        assertThat(entries(store.all(false))).containsExactly("f=6");
    }

    @Test
    public void anIngestedBatchLeavesTheLastWriteOfEachKeyAndItsOffset() {
        BytesStore store = store();
        store.apply(batch("a=1", "b=2", "c=3"), 3);

        // Over what is there: b deleted, a replaced, d written twice, e deleted before it exists.
        store.ingest(batch("d=4", "b=-", "a=5", "e=-", "d=6", "f=7"), 9);
        store.ingest(new WriteBatch(), 10); // only markers read: the offset moves

        assertThat(entries(store.all(false))).containsExactly("a=5", "c=3", "d=6", "f=7");
        assertThat(store.get(b("b"))).isNull();
        assertThat(store.changelogOffset()).hasValue(10);
        assertThatThrownBy(() -> store.ingest(new WriteBatch().deleteRange(b("a"), b("c")), 11))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("range deletes");
        if (persistent()) {
            store.close();
            BytesStore reopened = reopen(store);
            opened.add(reopened);
            assertThat(entries(reopened.all(false))).containsExactly("a=5", "c=3", "d=6", "f=7");
            assertThat(reopened.changelogOffset()).hasValue(10);
        }
    }

    @Test
    public void anIngestedBatchKeepsEveryByteOfKeysAndValuesOfAnySize() {
        BytesStore store = store();
        WriteBatch batch = new WriteBatch();
        java.util.Map<String, byte[]> expected = new java.util.TreeMap<>();
        java.util.Random random = new java.util.Random(42);
        // Sizes around and well past the bulk load's first buffers (256-byte keys, 1 KiB values).
        for (int size : new int[] {0, 1, 255, 256, 257, 1023, 1024, 1025, 5000, 70_000, 3}) {
            byte[] key = new byte[Math.min(size, 600) + 1];
            random.nextBytes(key);
            key[0] = (byte) 'k'; // never empty, and distinct from the others with high probability
            byte[] value = new byte[size];
            random.nextBytes(value);
            batch.put(key, value);
            expected.put(java.util.HexFormat.of().formatHex(key), value);
        }
        store.ingest(batch, 11);
        expected.forEach(
                (key, value) -> assertThat(store.get(java.util.HexFormat.of().parseHex(key)))
                        .as(key)
                        .isEqualTo(value));
        assertThat(entries(store.all(false))).hasSize(expected.size());
    }

    @Test
    public void rangeDeletesSurviveReopening() {
        org.junit.jupiter.api.Assumptions.assumeTrue(persistent(), "an in-memory store does not survive closing");
        BytesStore store = storeWithLetters();
        store.deleteRange(b("a"), b("c"));
        store.close();
        BytesStore reopened = reopen(store);
        opened.add(reopened);
        assertThat(entries(reopened.all(false))).containsExactly("d=4", "f=6");
        assertThat(reopened.changelogOffset()).hasValue(4);
    }

    @Test
    public void changelogTopicIdIsRecordedKeptOnReopenAndClearedWithTheStore() {
        BytesStore store = storeWithLetters();
        assertThat(store.changelogTopicId()).isEmpty();
        store.recordChangelogTopicId("id-1");
        store.recordChangelogTopicId("id-2");
        assertThat(store.changelogTopicId()).hasValue("id-2");
        if (persistent()) {
            store.close();
            store = reopen(store);
            opened.add(store);
            assertThat(store.changelogTopicId()).hasValue("id-2");
            assertThat(store.changelogOffset()).hasValue(4);
        }
        store.clear();
        assertThat(store.changelogTopicId()).isEmpty();
        assertThat(store.changelogOffset()).isEmpty();
    }

    @Test
    public void reopeningKeepsDataAndChangelogOffset() {
        org.junit.jupiter.api.Assumptions.assumeTrue(persistent(), "an in-memory store does not survive closing");
        BytesStore store = storeWithLetters();
        store.apply(batch("b=-", "g=7"), 42);
        store.close();
        BytesStore reopened = reopen(store);
        opened.add(reopened);
        assertThat(entries(reopened.all(false))).containsExactly("a=1", "d=4", "f=6", "g=7");
        assertThat(reopened.changelogOffset()).hasValue(42);
    }

    @Test
    public void iteratorUseAfterItsCloseThrows() {
        BytesStore store = storeWithLetters();
        BytesIterator it = store.all(false);
        it.next();
        it.close();
        it.close(); // idempotent
        assertThatThrownBy(it::hasNext).isInstanceOf(IllegalStateException.class);
        assertThatThrownBy(it::next).isInstanceOf(IllegalStateException.class);
        assertThatThrownBy(it::peekNextKey).isInstanceOf(IllegalStateException.class);
    }

    @Test
    public void closingTheStoreClosesOpenIteratorsAndTheyThrowAfterwards() {
        BytesStore store = storeWithLetters();
        BytesIterator open = store.all(false);
        BytesIterator empty = store.range(b("z"), b("a"), false);
        BytesIterator prefix = store.prefix(b("a"));
        open.next();
        store.close();
        for (BytesIterator it : List.of(open, empty, prefix)) {
            assertThatThrownBy(it::hasNext).isInstanceOf(StoreClosedException.class);
            assertThatThrownBy(it::next).isInstanceOf(StoreClosedException.class);
            it.close(); // closing an iterator of a closed store is allowed and quiet
        }
    }

    @Test
    public void storeOperationsAfterCloseThrowStoreClosed() {
        BytesStore store = storeWithLetters();
        store.close();
        store.close(); // idempotent
        assertThatThrownBy(() -> store.get(b("a"))).isInstanceOf(StoreClosedException.class);
        assertThatThrownBy(() -> store.range(b("a"), b("c"), false)).isInstanceOf(StoreClosedException.class);
        assertThatThrownBy(() -> store.prefix(b("a"))).isInstanceOf(StoreClosedException.class);
        assertThatThrownBy(() -> store.all(true)).isInstanceOf(StoreClosedException.class);
        assertThatThrownBy(store::approximateCount).isInstanceOf(StoreClosedException.class);
        assertThatThrownBy(() -> store.apply(batch("a=1"), 1)).isInstanceOf(StoreClosedException.class);
        assertThatThrownBy(store::changelogOffset).isInstanceOf(StoreClosedException.class);
        assertThatThrownBy(store::clear).isInstanceOf(StoreClosedException.class);
        assertThatThrownBy(() -> store.deleteRange(b("a"), b("c"))).isInstanceOf(StoreClosedException.class);
    }

    /** a=1, b=2, d=4, f=6 at offset 4. */
    protected BytesStore storeWithLetters() {
        BytesStore store = store();
        store.apply(batch("a=1", "b=2", "d=4", "f=6"), 4);
        return store;
    }

    private static <T> List<T> reversed(List<T> list) {
        List<T> copy = new ArrayList<>(list);
        java.util.Collections.reverse(copy);
        return copy;
    }
}
