package io.weir.state.internal;

import static io.weir.state.internal.Bytes.b;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class WriteBatchTest {

    @Test
    void keepsEntriesInOrderAndGrows() {
        WriteBatch batch = new WriteBatch(1);
        for (int i = 0; i < 100; i++) {
            batch.put(b("k" + i), i % 2 == 0 ? b("v") : null);
        }
        assertThat(batch.size()).isEqualTo(100);
        assertThat(batch.value(1)).isNull();
        assertThat(batch.bytes()).isEqualTo(290 + 50);
        List<String> keys = new ArrayList<>();
        batch.forEach((k, v) -> keys.add(Bytes.s(k)));
        assertThat(keys).startsWith("k0", "k1", "k2").endsWith("k99");
    }

    @Test
    void clearEmptiesTheBatchForReuse() {
        WriteBatch batch = new WriteBatch().put(b("a"), b("1")).delete(b("b"));
        batch.clear();
        assertThat(batch.isEmpty()).isTrue();
        assertThat(batch.bytes()).isZero();
        assertThatThrownBy(() -> batch.key(0)).isInstanceOf(IndexOutOfBoundsException.class);
        assertThatThrownBy(() -> batch.put(null, b("1"))).isInstanceOf(NullPointerException.class);
    }

    @Test
    void rangeDeletesAreEntriesInTheOrderWithTheirEnd() {
        WriteBatch batch = new WriteBatch(1)
                .put(b("a"), b("1"))
                .deleteRange(b("b"), b("d"))
                .delete(b("e"));
        assertThat(batch.size()).isEqualTo(3);
        assertThat(batch.hasRangeDeletes()).isTrue();
        assertThat(batch.rangeEnd(0)).isNull();
        assertThat(Bytes.s(batch.key(1))).isEqualTo("b");
        assertThat(Bytes.s(batch.rangeEnd(1))).isEqualTo("d");
        assertThat(batch.value(1)).isNull();
        assertThat(batch.rangeEnd(2)).isNull();
        assertThat(batch.isDeletesOnly()).isFalse();
        assertThatThrownBy(() -> batch.forEach((k, v) -> {})).isInstanceOf(IllegalStateException.class);
        batch.clear();
        assertThat(batch.hasRangeDeletes()).isFalse();
        batch.put(b("x"), null);
        assertThat(batch.rangeEnd(0)).isNull();
        assertThat(batch.isDeletesOnly()).isTrue();
    }

    @Test
    void anEmptyOrInvertedRangeAddsNothing() {
        WriteBatch batch = new WriteBatch().deleteRange(b("b"), b("b")).deleteRange(b("c"), b("a"));
        assertThat(batch.isEmpty()).isTrue();
        assertThat(batch.hasRangeDeletes()).isFalse();
        assertThatThrownBy(() -> batch.deleteRange(null, b("a"))).isInstanceOf(NullPointerException.class);
    }

    @Test
    void lastWritePerKeyInKeyOrderIsWhatApplyingTheBatchLeaves() {
        java.util.Random random = new java.util.Random(42);
        WriteBatch batch = new WriteBatch();
        java.util.TreeMap<byte[], byte[]> applied = new java.util.TreeMap<>(ByteKeys::compare);
        for (int i = 0; i < 5_000; i++) {
            // Keys from a small space, bytes above 0x7f included (unsigned order), some one byte
            // long (a prefix of others), some sharing their first five bytes (ties the whole key decides).
            byte[] key = switch (random.nextInt(3)) {
                case 0 -> new byte[] {(byte) random.nextInt(256)};
                case 1 -> new byte[] {(byte) random.nextInt(256), (byte) random.nextInt(8)};
                default -> new byte[] {(byte) 0x90, 0, 0, 0, 0, (byte) random.nextInt(256), (byte) random.nextInt(4)};
            };
            byte[] value = random.nextInt(5) == 0 ? null : b("v" + i);
            batch.put(key, value);
            applied.put(key, value);
        }

        int[] order = batch.lastWritePerKeyInKeyOrder();

        List<byte[]> keys = new ArrayList<>();
        List<byte[]> values = new ArrayList<>();
        for (int i : order) {
            keys.add(batch.key(i));
            values.add(batch.value(i));
        }
        assertThat(keys).containsExactlyElementsOf(applied.keySet());
        assertThat(values).containsExactlyElementsOf(applied.values());
    }

    @Test
    void aKeyOrderRefusesRangeDeletes() {
        WriteBatch batch = new WriteBatch().put(b("a"), b("1")).deleteRange(b("b"), b("c"));

        assertThatThrownBy(batch::lastWritePerKeyInKeyOrder).isInstanceOf(IllegalStateException.class);
    }
}
