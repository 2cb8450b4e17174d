package io.weir.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

class KeyedDiffTest {

    private static byte[] b(String s) {
        return s == null ? null : s.getBytes(StandardCharsets.UTF_8);
    }

    private static KeyedDiff.Side side(String... keyValues) {
        KeyedDiff.Side side = new KeyedDiff.Side();
        for (int i = 0; i < keyValues.length; i += 2) {
            side.add(b(keyValues[i]), b(keyValues[i + 1]));
        }
        return side;
    }

    @Test
    void theLastValuePerKeyCountsAndTombstonesDeleteKeys() {
        KeyedDiff.Side left = side("a", "1", "a", "2", "b", "1", "c", "1", "d", "1", "d", null);
        KeyedDiff.Side right = side("a", "2", "b", "5", "e", "1", "c", "9", "c", "1");
        KeyedDiff.Result r = KeyedDiff.compare(left, right, 10);
        assertThat(r.equal()).isEqualTo(2); // a=2, c=1
        assertThat(r.changed()).isEqualTo(1); // b
        assertThat(r.onlyLeft()).isZero(); // d was deleted
        assertThat(r.onlyRight()).isEqualTo(1); // e
        assertThat(r.leftRecords()).isEqualTo(6);
        assertThat(r.same()).isFalse();
        assertThat(r.changedExamples()).singleElement().satisfies(e -> {
            assertThat(e.key()).isEqualTo(b("b"));
            assertThat(e.left()).isEqualTo(b("1"));
            assertThat(e.right()).isEqualTo(b("5"));
        });
        assertThat(r.onlyRightExamples())
                .extracting(e -> new String(e.key(), StandardCharsets.UTF_8))
                .containsExactly("e");
    }

    @Test
    void examplesAreCappedButCountsAreNot() {
        KeyedDiff.Side left = side("a", "1", "b", "1", "c", "1");
        KeyedDiff.Result r = KeyedDiff.compare(left, side(), 2);
        assertThat(r.onlyLeft()).isEqualTo(3);
        assertThat(r.onlyLeftExamples()).hasSize(2);
        assertThat(KeyedDiff.compare(left, side(), 0).onlyLeftExamples()).isEmpty();
    }

    @Test
    void equalSidesAndKeylessRecords() {
        KeyedDiff.Side left = side("a", "1");
        left.add(null, b("x"));
        KeyedDiff.Result r = KeyedDiff.compare(left, side("a", "0", "a", "1"), 5);
        assertThat(r.same()).isTrue();
        assertThat(r.equal()).isEqualTo(1);
        assertThat(KeyedDiff.compare(side(), side(), 5).same()).isTrue();
    }
}
