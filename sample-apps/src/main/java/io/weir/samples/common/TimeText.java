package io.weir.samples.common;

import io.weir.state.Windowed;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.function.LongFunction;

/** How the window samples print event times and windows. */
public final class TimeText {

    private static final DateTimeFormatter CLOCK =
            DateTimeFormatter.ofPattern("HH:mm:ss").withZone(ZoneOffset.UTC);

    private TimeText() {}

    /** The time of day, UTC: {@code 10:04:30}. */
    public static String clock(long millis) {
        return CLOCK.format(Instant.ofEpochMilli(millis));
    }

    /** Minutes and seconds after {@code base}: {@code 1:30} (negative with a minus sign). */
    public static String sinceBase(long base, long millis) {
        long seconds = Math.floorDiv(millis - base, 1000);
        String sign = seconds < 0 ? "-" : "";
        seconds = Math.abs(seconds);
        return sign + seconds / 60 + ":" + String.format("%02d", seconds % 60);
    }

    /** A time window, start included and end excluded: {@code [1:00, 2:00)}. */
    public static String timeWindow(Windowed<?> w, LongFunction<String> time) {
        return "[" + time.apply(w.start()) + ", " + time.apply(w.end()) + ")";
    }

    /** A session, from its first to its last record, both included: {@code [10:00:00, 10:04:00]}. */
    public static String session(Windowed<?> w, LongFunction<String> time) {
        return "[" + time.apply(w.start()) + ", " + time.apply(w.end()) + "]";
    }
}
