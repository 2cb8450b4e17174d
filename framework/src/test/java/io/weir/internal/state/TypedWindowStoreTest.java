package io.weir.internal.state;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.weir.common.KeyValue;
import io.weir.serde.Serde;
import io.weir.serde.Serdes;
import io.weir.state.KeyValueIterator;
import io.weir.state.Windowed;
import io.weir.state.internal.BytesStore;
import io.weir.state.internal.PendingStore;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.function.Function;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/** The typed window store over the pending writes of each committed store. */
class TypedWindowStoreTest {

    private static final long SIZE = 10;

    @RegisterExtension
    static final StoreFixture STORES = new StoreFixture();

    @TempDir
    Path dir;

    private PendingStore pending;

    private <K> TypedWindowStore<K, Long> store(Backend backend, Serde<K> keys) {
        BytesStore committed = STORES.open(backend, dir, "windows-" + STORES.openedCount());
        STORES.closeAfterTest(committed);
        pending = new PendingStore(committed, 1 << 20);
        return new TypedWindowStore<>("windows", "app-windows-changelog", pending, keys, Serdes.longs(), SIZE, t -> {});
    }

    @ParameterizedTest
    @EnumSource(Backend.class)
    void putsAreReadBackBeforeAndAfterCommitAndANullValueDeletes(Backend backend) {
        TypedWindowStore<String, Long> store = store(backend, Serdes.strings());
        store.put("a", 0, 1L);
        store.put("a", 10, 2L);
        store.put("b", 0, 3L);
        assertThat(store.fetch("a", 0)).isEqualTo(1L);
        assertThat(store.fetch("a", 5)).isNull();
        pending.commit(3);
        assertThat(store.fetch("a", 10)).isEqualTo(2L);
        store.put("a", 10, null);
        assertThat(store.fetch("a", 10)).isNull();
        pending.commit(4);
        assertThat(store.fetch("a", 10)).isNull();
        assertThat(drain(store.fetchAll(Long.MIN_VALUE, Long.MAX_VALUE))).containsExactly("a@0..10=1", "b@0..10=3");
        assertThat(store.windowSize()).isEqualTo(SIZE);
        assertThat(store.name()).isEqualTo("windows");
    }

    @ParameterizedTest
    @EnumSource(Backend.class)
    void fetchAllIsOrderedByStartThenKeyBytesWithNegativeTimesFirst(Backend backend) {
        TypedWindowStore<String, Long> store = store(backend, Serdes.strings());
        store.put("b", 0, 1L);
        store.put("a", 0, 2L);
        store.put("z", -1000, 3L);
        store.put("a", -1, 4L);
        pending.commit(4);
        store.put("c", -1000, 5L); // pending, merged in order
        assertThat(drain(store.fetchAll(Long.MIN_VALUE, Long.MAX_VALUE)))
                .containsExactly("c@-1000..-990=5", "z@-1000..-990=3", "a@-1..9=4", "a@0..10=2", "b@0..10=1");
        assertThat(drain(store.fetchAll(-1, 0))).containsExactly("a@-1..9=4", "a@0..10=2", "b@0..10=1");
        assertThat(drain(store.fetchAll(-999, -2))).isEmpty();
        assertThat(drain(store.fetchAll(1, 0))).isEmpty();
    }

    @ParameterizedTest
    @EnumSource(Backend.class)
    void fetchOfOneKeyKeepsOnlyThatKeyNotKeysItIsAPrefixOf(Backend backend) {
        TypedWindowStore<String, Long> store = store(backend, Serdes.strings());
        for (long start = 0; start <= 40; start += 10) {
            store.put("a", start, start);
            store.put("ab", start, start + 1);
            store.put("", start, start + 2);
        }
        pending.commit(15);
        // both bounds inclusive; the window of the empty key at to + 1 (the scan's bound) is left out
        assertThat(drain(store.fetch("a", 10, 30))).containsExactly("a@10..20=10", "a@20..30=20", "a@30..40=30");
        assertThat(drain(store.fetch("", 10, 30))).containsExactly("@10..20=12", "@20..30=22", "@30..40=32");
        assertThat(drain(store.fetch("ab", 11, 29))).containsExactly("ab@20..30=21");
        assertThat(drain(store.fetch("abc", 0, 40))).isEmpty();
        assertThat(drain(store.fetchAll(19, 20))).containsExactly("@20..30=22", "a@20..30=20", "ab@20..30=21");
    }

    @ParameterizedTest
    @EnumSource(Backend.class)
    void timesAtTheExtremesAreStoredAndScanned(Backend backend) {
        TypedWindowStore<String, Long> store = store(backend, Serdes.strings());
        store.put("k", Long.MIN_VALUE, 1L);
        store.put("k", Long.MAX_VALUE, 2L);
        store.put("k", Long.MAX_VALUE - 5, 3L);
        pending.commit(3);
        assertThat(drain(store.fetch("k", Long.MIN_VALUE, Long.MAX_VALUE)))
                .containsExactly(
                        "k@" + Long.MIN_VALUE + ".." + (Long.MIN_VALUE + SIZE) + "=1",
                        "k@" + (Long.MAX_VALUE - 5) + ".." + Long.MAX_VALUE + "=3", // the end saturates
                        "k@" + Long.MAX_VALUE + ".." + Long.MAX_VALUE + "=2");
        assertThat(drain(store.fetchAll(Long.MAX_VALUE, Long.MAX_VALUE))).hasSize(1);
        assertThat(store.fetch("k", Long.MIN_VALUE)).isEqualTo(1L);
    }

    @ParameterizedTest
    @EnumSource(Backend.class)
    void byteArrayKeysKeepTheirUnsignedOrderWithinAStart(Backend backend) {
        TypedWindowStore<byte[], Long> store = store(backend, Serdes.bytes());
        store.put(new byte[] {(byte) 0xFF}, 0, 1L);
        store.put(new byte[] {0x00, 0x00}, 0, 2L);
        store.put(new byte[0], 0, 3L);
        store.put(new byte[] {0x00}, 0, 4L);
        store.put(new byte[] {0x00}, -1, 5L);
        pending.commit(5);
        assertThat(drain(store.fetchAll(-1, 0), k -> HexFormat.of().formatHex(k)))
                .containsExactly("00@-1..9=5", "@0..10=3", "00@0..10=4", "0000@0..10=2", "ff@0..10=1");
        assertThat(drain(
                        store.fetch(new byte[] {0x00}, 0, 0),
                        k -> HexFormat.of().formatHex(k)))
                .containsExactly("00@0..10=4");
        assertThat(store.fetch(new byte[] {0x00, 0x00}, 0)).isEqualTo(2L);
    }

    @ParameterizedTest
    @EnumSource(Backend.class)
    void iteratorsPeekAndRefuseUseAfterClose(Backend backend) {
        TypedWindowStore<String, Long> store = store(backend, Serdes.strings());
        store.put("a", 0, 1L);
        store.put("b", 0, 2L);
        pending.commit(2);
        KeyValueIterator<Windowed<String>, Long> it = store.fetchAll(0, 0);
        assertThat(it.peekNextKey()).isEqualTo(new Windowed<>("a", 0, 10));
        assertThat(it.next().value()).isEqualTo(1L);
        it.close();
        it.close();
        assertThatThrownBy(it::hasNext).isInstanceOf(IllegalStateException.class);
        assertThatThrownBy(() -> store.put(null, 0, 1L)).isInstanceOf(NullPointerException.class);
    }

    static List<String> drain(KeyValueIterator<Windowed<String>, Long> it) {
        return drain(it, k -> k);
    }

    static <K> List<String> drain(KeyValueIterator<Windowed<K>, Long> it, Function<K, String> key) {
        try (it) {
            List<String> out = new ArrayList<>();
            while (it.hasNext()) {
                KeyValue<Windowed<K>, Long> e = it.next();
                out.add(key.apply(e.key().key()) + "@" + e.key().start() + ".."
                        + e.key().end() + "=" + e.value());
            }
            return out;
        }
    }
}
