package io.weir.internal.state;

import static io.weir.internal.state.WindowKeysTest.b;
import static org.assertj.core.api.Assertions.assertThat;

import io.weir.state.internal.ByteKeys;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

class SessionKeysTest {

    @Test
    void aKeysPrimaryPrefixDoesNotCoverKeysItIsAPrefixOf() {
        byte[] a = SessionKeys.primaryPrefix(b("a"));
        assertThat(startsWith(SessionKeys.primary(b("a"), 0, 5), a)).isTrue();
        assertThat(startsWith(SessionKeys.primary(b("ab"), 0, 5), a)).isFalse();
        assertThat(startsWith(SessionKeys.primary(new byte[0], 0, 5), SessionKeys.primaryPrefix(new byte[0])))
                .isTrue();
        assertThat(startsWith(SessionKeys.primary(b("a"), 0, 5), SessionKeys.primaryPrefix(new byte[0])))
                .isFalse();
    }

    @Test
    void aKeysPrimaryEntriesAreOrderedByEndThenStartWithNegativeTimesFirst() {
        byte[] k = {(byte) 0xFF, 0x00};
        List<byte[]> keys = new ArrayList<>(List.of(
                SessionKeys.primary(k, 5, 10),
                SessionKeys.primary(k, -30, -20),
                SessionKeys.primary(k, 0, 10),
                SessionKeys.primary(k, -5, 0)));
        keys.sort(ByteKeys.ORDER);
        assertThat(keys.stream()
                        .map(p -> SessionKeys.primaryStart(p) + ".." + SessionKeys.primaryEnd(p))
                        .toList())
                .containsExactly("-30..-20", "-5..0", "0..10", "5..10");
        assertThat(ByteKeys.compare(SessionKeys.primaryFrom(k, 0), SessionKeys.primary(k, -5, 0)))
                .isNegative();
        assertThat(ByteKeys.compare(SessionKeys.primaryFrom(k, 1), SessionKeys.primary(k, -5, 0)))
                .isPositive();
    }

    @Test
    void theIndexOrdersEverySessionByEndThenStartThenKeyAndSortsBeforeThePrimaries() {
        List<byte[]> keys = new ArrayList<>(List.of(
                SessionKeys.index(b("b"), 0, 10),
                SessionKeys.index(b("a"), 0, 10),
                SessionKeys.index(b("z"), -3, -1),
                SessionKeys.index(b("a"), 1, 10),
                SessionKeys.primary(b(""), -9, -9)));
        keys.sort(ByteKeys.ORDER);
        assertThat(keys.subList(0, 4).stream()
                        .map(i -> SessionKeysTest.describe(i))
                        .toList())
                .containsExactly("z -3..-1", "a 0..10", "b 0..10", "a 1..10");
        assertThat(SessionKeys.isIndex(keys.get(4))).isFalse();
        assertThat(ByteKeys.compare(SessionKeys.indexFrom(10), SessionKeys.index(b("a"), 0, 10)))
                .isNegative();
        assertThat(ByteKeys.compare(SessionKeys.indexFrom(11), SessionKeys.index(b("a"), 10, 10)))
                .isPositive();
    }

    @Test
    void anIndexEntryLeadsToItsPrimaryEntry() {
        byte[] key = {0x00, (byte) 0xFF, 0x01};
        byte[] index = SessionKeys.index(key, -7, 42);
        assertThat(SessionKeys.primaryOf(index)).isEqualTo(SessionKeys.primary(key, -7, 42));
        assertThat(SessionKeys.indexKey(index)).isEqualTo(key);
        assertThat(SessionKeys.indexStart(index)).isEqualTo(-7);
        assertThat(SessionKeys.indexEnd(index)).isEqualTo(42);
    }

    private static String describe(byte[] index) {
        return WindowKeysTest.s(SessionKeys.indexKey(index)) + " " + SessionKeys.indexStart(index) + ".."
                + SessionKeys.indexEnd(index);
    }

    private static boolean startsWith(byte[] key, byte[] prefix) {
        return key.length >= prefix.length && Arrays.equals(key, 0, prefix.length, prefix, 0, prefix.length);
    }
}
