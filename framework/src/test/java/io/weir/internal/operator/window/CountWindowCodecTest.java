package io.weir.internal.operator.window;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.weir.serde.Serdes;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

class CountWindowCodecTest {

    private final CountWindowCodec<String> codec = new CountWindowCodec<>(Serdes.strings());

    @Test
    void roundTripsOpenWindowsWithOutOfOrderTimesNegativeTimesAndNullAggregates() {
        CountWindowState<String> state = new CountWindowState<>(
                3,
                List.of(
                        new CountWindowState.Window<>(
                                1_700_000_000_000L, 1_699_999_999_000L, 1_700_000_005_000L, 7, "a,b"),
                        new CountWindowState.Window<>(-5, -9, -5, 1, null),
                        new CountWindowState.Window<>(
                                Long.MIN_VALUE, Long.MIN_VALUE, Long.MAX_VALUE, Long.MAX_VALUE, "")));
        byte[] bytes = codec.encode("t", state);
        assertThat(codec.decode("t", bytes)).isEqualTo(state);
    }

    @Test
    void anInOrderWindowTakesAFewBytesBeyondItsFirstTimeAndAggregate() {
        CountWindowState<String> state = new CountWindowState<>(
                1,
                List.of(new CountWindowState.Window<>(
                        1_700_000_000_000L, 1_700_000_000_000L, 1_700_000_000_100L, 2, "ab")));
        // version + phase + window count + first (8) + min (1) + max (2) + count (1) + length (1) + "ab"
        assertThat(codec.encode("t", state)).hasSize(1 + 1 + 1 + 8 + 1 + 2 + 1 + 1 + 2);
    }

    @Test
    void anEmptyStateRoundTrips() {
        assertThat(codec.decode("t", codec.encode("t", CountWindowState.empty())))
                .isEqualTo(CountWindowState.empty());
    }

    @Test
    void rejectsTruncatedTrailingAndUnknownVersionBytes() {
        byte[] bytes = codec.encode(
                "t", new CountWindowState<>(0, List.of(new CountWindowState.Window<>(10, 10, 12, 2, "xy"))));
        assertThatThrownBy(() -> codec.decode("t", Arrays.copyOf(bytes, bytes.length - 1)))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("corrupt");
        assertThatThrownBy(() -> codec.decode("t", Arrays.copyOf(bytes, bytes.length + 1)))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("trailing");
        byte[] future = bytes.clone();
        future[0] = 2;
        assertThatThrownBy(() -> codec.decode("t", future))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("version 2");
    }

    @Test
    void indexKeysSortByDeadlineIncludingNegativeDeadlinesAndGiveBackTheKey() {
        byte[] key = "k".getBytes();
        byte[] early = CountWindowKeys.index(-1, key);
        byte[] late = CountWindowKeys.index(1, key);
        assertThat(Arrays.compareUnsigned(early, late)).isNegative();
        assertThat(Arrays.compareUnsigned(
                        CountWindowKeys.index(Long.MIN_VALUE, key), CountWindowKeys.index(Long.MAX_VALUE, key)))
                .isNegative();
        assertThat(CountWindowKeys.deadline(early)).isEqualTo(-1);
        assertThat(CountWindowKeys.keyOfIndex(late)).isEqualTo(key);
        assertThat(Arrays.compareUnsigned(CountWindowKeys.state(new byte[] {(byte) 0xFF}), early))
                .isNegative();
    }

    @Test
    void aDeadlineSaturatesInsteadOfOverflowing() {
        assertThat(new CountWindowState.Window<>(Long.MAX_VALUE - 1, 0, 0, 1, null).deadline(10))
                .isEqualTo(Long.MAX_VALUE);
        assertThat(new CountWindowState.Window<>(5, 5, 5, 1, null).deadline(-1)).isEqualTo(Long.MAX_VALUE);
    }
}
