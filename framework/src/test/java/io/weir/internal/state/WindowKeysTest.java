package io.weir.internal.state;

import static org.assertj.core.api.Assertions.assertThat;

import io.weir.state.internal.ByteKeys;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class WindowKeysTest {

    @Test
    void timeBytesSortAsSignedNumbersWithNegativeTimesFirst() {
        List<Long> times = List.of(
                Long.MIN_VALUE, -86_400_000L, -256L, -1L, 0L, 1L, 255L, 256L, 1_700_000_000_000L, Long.MAX_VALUE);
        List<byte[]> encoded =
                new ArrayList<>(times.stream().map(WindowKeys::timeBytes).toList());
        encoded.sort(ByteKeys.ORDER);
        assertThat(encoded.stream().map(b -> WindowKeys.readTime(b, 0)).toList())
                .containsExactlyElementsOf(times);
        assertThat(WindowKeys.MIN).containsExactly(0, 0, 0, 0, 0, 0, 0, 0);
    }

    @Test
    void keysAreOrderedByStartThenKeyBytes() {
        List<byte[]> keys = new ArrayList<>(List.of(
                WindowKeys.key(0, b("b")),
                WindowKeys.key(0, b("ab")),
                WindowKeys.key(-1, b("z")),
                WindowKeys.key(0, b("a")),
                WindowKeys.key(0, b("")),
                WindowKeys.key(1, b(""))));
        keys.sort(ByteKeys.ORDER);
        assertThat(keys.stream()
                        .map(k -> WindowKeys.start(k) + ":" + s(WindowKeys.keyBytes(k)))
                        .toList())
                .containsExactly("-1:z", "0:", "0:a", "0:ab", "0:b", "1:");
        // a start bound is the first key of its start and after every key of earlier starts
        assertThat(ByteKeys.compare(WindowKeys.startBound(0), WindowKeys.key(0, b(""))))
                .isZero();
        assertThat(ByteKeys.compare(WindowKeys.startBound(0), WindowKeys.key(-1, new byte[] {(byte) 0xFF})))
                .isPositive();
    }

    @Test
    void hasKeyMatchesTheWholeKeyNotAPrefix() {
        byte[] ab = WindowKeys.key(5, b("ab"));
        assertThat(WindowKeys.hasKey(ab, b("ab"))).isTrue();
        assertThat(WindowKeys.hasKey(ab, b("a"))).isFalse();
        assertThat(WindowKeys.hasKey(WindowKeys.key(5, b("a")), b("ab"))).isFalse();
        assertThat(WindowKeys.hasKey(WindowKeys.key(5, new byte[0]), new byte[0]))
                .isTrue();
    }

    static byte[] b(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    static String s(byte[] b) {
        return new String(b, StandardCharsets.UTF_8);
    }
}
