package io.weir.internal.state;

import static io.weir.internal.state.TypedWindowStoreTest.drain;
import static org.assertj.core.api.Assertions.assertThat;

import io.weir.common.KeyValue;
import io.weir.serde.Serdes;
import io.weir.state.Windowed;
import io.weir.state.internal.BytesIterator;
import io.weir.state.internal.BytesReader;
import io.weir.state.internal.BytesStore;
import io.weir.state.internal.PendingStore;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.HexFormat;
import java.util.Set;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/** The typed session store over the pending writes of each committed store. */
class TypedSessionStoreTest {

    @RegisterExtension
    static final StoreFixture STORES = new StoreFixture();

    @TempDir
    Path dir;

    private BytesStore committed;
    private PendingStore pending;

    private TypedSessionStore<String, Long> store(Backend backend) {
        committed = STORES.open(backend, dir, "sessions-" + STORES.openedCount());
        STORES.closeAfterTest(committed);
        pending = new PendingStore(committed, 1 << 20);
        return new TypedSessionStore<>(
                "sessions", "app-sessions-changelog", pending, Serdes.strings(), Serdes.longs(), t -> {});
    }

    @ParameterizedTest
    @EnumSource(Backend.class)
    void sessionsAreWrittenFetchedAndRemovedWithTheirIndexEntries(Backend backend) {
        TypedSessionStore<String, Long> store = store(backend);
        store.put(new Windowed<>("a", 0, 10), 1L);
        store.put(new Windowed<>("a", 20, 20), 2L);
        store.put(new Windowed<>("b", 5, 15), 3L);
        assertThat(store.fetchSession("a", 0, 10)).isEqualTo(1L);
        assertIndexMatchesPrimaries(pending, 3);
        pending.commit(6);
        assertIndexMatchesPrimaries(committed, 3);

        store.remove(new Windowed<>("a", 0, 10));
        store.put(new Windowed<>("b", 5, 15), null); // a null value removes too
        store.remove(new Windowed<>("c", 1, 2)); // absent: nothing happens
        assertThat(store.fetchSession("a", 0, 10)).isNull();
        assertIndexMatchesPrimaries(pending, 1);
        pending.commit(12);
        assertIndexMatchesPrimaries(committed, 1);
        assertThat(drain(store.fetchAll(Long.MIN_VALUE, Long.MAX_VALUE))).containsExactly("a@20..20=2");
    }

    @ParameterizedTest
    @EnumSource(Backend.class)
    void findSessionsReturnsTheKeysSessionsThatReachTheRangeAscendingByEnd(Backend backend) {
        TypedSessionStore<String, Long> store = store(backend);
        store.put(new Windowed<>("a", 0, 10), 1L);
        store.put(new Windowed<>("a", 20, 30), 2L);
        store.put(new Windowed<>("a", 40, 40), 3L);
        store.put(new Windowed<>("a", -50, -45), 4L);
        store.put(new Windowed<>("ab", 5, 25), 5L);
        store.put(new Windowed<>("", 5, 25), 6L);
        pending.commit(12);
        store.put(new Windowed<>("a", 12, 15), 7L); // pending, merged in order
        // end >= 10 and start <= 20: both bounds inclusive
        assertThat(drain(store.findSessions("a", 10, 20))).containsExactly("a@0..10=1", "a@12..15=7", "a@20..30=2");
        assertThat(drain(store.findSessions("a", 11, 19))).containsExactly("a@12..15=7");
        assertThat(drain(store.findSessions("a", Long.MIN_VALUE, Long.MAX_VALUE)))
                .hasSize(5);
        assertThat(drain(store.findSessions("a", 41, Long.MAX_VALUE))).isEmpty();
        assertThat(drain(store.findSessions("", 0, 100))).containsExactly("@5..25=6");
        assertThat(drain(store.findSessions("abc", 0, 100))).isEmpty();
    }

    @ParameterizedTest
    @EnumSource(Backend.class)
    void overlappingSessionsAreFoundWhateverTheirOrderOfEnds(Backend backend) {
        TypedSessionStore<String, Long> store = store(backend);
        store.put(new Windowed<>("k", 100, 200), 1L); // ends later but starts after latestStart
        store.put(new Windowed<>("k", 0, 300), 2L); // ends last, starts first
        pending.commit(4);
        assertThat(drain(store.findSessions("k", 150, 50))).containsExactly("k@0..300=2");
    }

    @ParameterizedTest
    @EnumSource(Backend.class)
    void fetchAllWalksEveryKeysSessionsByEndThenStartThenKey(Backend backend) {
        TypedSessionStore<String, Long> store = store(backend);
        store.put(new Windowed<>("b", 0, 10), 1L);
        store.put(new Windowed<>("a", 0, 10), 2L);
        store.put(new Windowed<>("a", 5, 10), 3L);
        store.put(new Windowed<>("z", -30, -20), 4L);
        store.put(new Windowed<>("m", 11, Long.MAX_VALUE), 5L);
        pending.commit(10);
        assertThat(drain(store.fetchAll(Long.MIN_VALUE, Long.MAX_VALUE)))
                .containsExactly(
                        "z@-30..-20=4", "a@0..10=2", "b@0..10=1", "a@5..10=3", "m@11.." + Long.MAX_VALUE + "=5");
        assertThat(drain(store.fetchAll(-20, 10))).hasSize(4);
        assertThat(drain(store.fetchAll(-19, 9))).isEmpty();
        assertThat(drain(store.fetchAll(10, 10))).hasSize(3);
    }

    @ParameterizedTest
    @EnumSource(Backend.class)
    void byteArrayKeysWithFfAndEmptyKeysStayApart(Backend backend) {
        BytesStore bytes = STORES.open(backend, dir, "byte-sessions");
        STORES.closeAfterTest(bytes);
        PendingStore p = new PendingStore(bytes);
        TypedSessionStore<byte[], Long> store =
                new TypedSessionStore<>("s", "t", p, Serdes.bytes(), Serdes.longs(), t -> {});
        store.put(new Windowed<>(new byte[] {(byte) 0xFF}, 0, 1), 1L);
        store.put(new Windowed<>(new byte[] {(byte) 0xFF, (byte) 0xFF}, 0, 1), 2L);
        store.put(new Windowed<>(new byte[0], 0, 1), 3L);
        p.commit(6);
        assertThat(TypedWindowStoreTest.drain(
                        store.findSessions(new byte[] {(byte) 0xFF}, 0, 1),
                        k -> HexFormat.of().formatHex(k)))
                .containsExactly("ff@0..1=1");
        assertThat(TypedWindowStoreTest.drain(
                        store.findSessions(new byte[0], 0, 1),
                        k -> HexFormat.of().formatHex(k)))
                .containsExactly("@0..1=3");
        assertThat(TypedWindowStoreTest.drain(
                        store.fetchAll(0, 1), k -> HexFormat.of().formatHex(k)))
                .containsExactly("@0..1=3", "ff@0..1=1", "ffff@0..1=2");
    }

    /** Every index entry has its primary entry and the other way round; {@code sessions} of each. */
    static void assertIndexMatchesPrimaries(BytesReader reader, int sessions) {
        Set<String> fromIndex = new HashSet<>();
        Set<String> primaries = new HashSet<>();
        try (BytesIterator it = reader.all(false)) {
            while (it.hasNext()) {
                KeyValue<byte[], byte[]> e = it.next();
                if (SessionKeys.isIndex(e.key())) {
                    assertThat(e.value()).isEmpty();
                    fromIndex.add(HexFormat.of().formatHex(SessionKeys.primaryOf(e.key())));
                } else {
                    primaries.add(HexFormat.of().formatHex(e.key()));
                }
            }
        }
        assertThat(fromIndex).hasSize(sessions).isEqualTo(primaries);
    }
}
