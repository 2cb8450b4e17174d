package io.weir.internal.operator.window;

import java.util.List;

/**
 * What a count-window operator keeps for one key: its open windows, oldest first, and where the
 * key stands in the slide ({@code phase}: the records seen since the last window opened, modulo
 * the slide; the next record opens a window when it is 0). Immutable; stored through
 * {@link CountWindowCodec}.
 *
 * @param phase   {@code 0 <= phase < slide}
 * @param windows the open windows in the order they opened; never full (a full window is emitted
 *                and dropped at once)
 */
record CountWindowState<VA>(long phase, List<Window<VA>> windows) {

    CountWindowState {
        windows = List.copyOf(windows);
    }

    static <VA> CountWindowState<VA> empty() {
        return new CountWindowState<>(0, List.of());
    }

    boolean isEmpty() {
        return windows.isEmpty();
    }

    /**
     * The earliest time-out deadline of the open windows, {@link Long#MAX_VALUE} if none (or no
     * time-out).
     */
    long earliestDeadline(long timeoutMs) {
        long earliest = Long.MAX_VALUE;
        for (Window<VA> w : windows) {
            earliest = Math.min(earliest, w.deadline(timeoutMs));
        }
        return earliest;
    }

    /**
     * One open window.
     *
     * @param first     the time of the record that opened it (its time-out counts from there)
     * @param min       the earliest record time in it
     * @param max       the latest record time in it
     * @param count     how many records it holds
     * @param aggregate their aggregate (may be null if the aggregator made it so)
     */
    record Window<VA>(long first, long min, long max, long count, VA aggregate) {

        /** This window with one more record of time {@code time}, whose aggregate is now {@code updated}. */
        Window<VA> plus(long time, VA updated) {
            return new Window<>(first, Math.min(min, time), Math.max(max, time), count + 1, updated);
        }

        /** {@code first + timeoutMs}, saturated; {@link Long#MAX_VALUE} for no time-out ({@code timeoutMs < 0}). */
        long deadline(long timeoutMs) {
            if (timeoutMs < 0) {
                return Long.MAX_VALUE;
            }
            long d = first + timeoutMs;
            return ((first ^ d) & (timeoutMs ^ d)) < 0 ? Long.MAX_VALUE : d;
        }
    }
}
