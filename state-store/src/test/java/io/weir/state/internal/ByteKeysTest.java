package io.weir.state.internal;

import static io.weir.state.internal.Bytes.u;
import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class ByteKeysTest {

    @Test
    void comparesBytesAsUnsigned() {
        assertThat(ByteKeys.compare(u(0x7F), u(0x80))).isNegative();
        assertThat(ByteKeys.compare(u(0x01), u(0x01, 0x00))).isNegative();
        assertThat(ByteKeys.compare(u(0xFF), u(0x00, 0xFF))).isPositive();
    }

    @Test
    void successorIsTheSmallestGreaterKey() {
        assertThat(ByteKeys.successor(u(0x01, 0xFF))).containsExactly(u(0x01, 0xFF, 0x00));
    }

    @Test
    void prefixEndIsTheSmallestKeyAfterEveryKeyWithThePrefix() {
        assertThat(ByteKeys.prefixEnd(u(0x01, 0x02))).containsExactly(u(0x01, 0x03));
        assertThat(ByteKeys.prefixEnd(u(0x01, 0xFF, 0xFF))).containsExactly(u(0x02));
        assertThat(ByteKeys.prefixEnd(u(0xFF, 0xFF))).isNull();
        assertThat(ByteKeys.prefixEnd(new byte[0])).isNull();
    }

    @Test
    void emptyRangeIsOnlyFromAfterTo() {
        assertThat(ByteKeys.isEmptyRange(u(2), u(1))).isTrue();
        assertThat(ByteKeys.isEmptyRange(u(1), u(1))).isFalse();
        assertThat(ByteKeys.isEmptyRange(null, u(1))).isFalse();
    }
}
