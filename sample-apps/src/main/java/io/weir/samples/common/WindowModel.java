package io.weir.samples.common;

import io.weir.dsl.SessionWindows;
import io.weir.dsl.TimeWindows;
import io.weir.state.Windowed;
import java.util.ArrayList;
import java.util.List;

/**
 * What windows a record belongs to, computed independently of Weir: the model the window samples
 * check their output against. The rules are those of {@link TimeWindows} and
 * {@link SessionWindows}.
 */
public final class WindowModel {

    private WindowModel() {}

    /**
     * The time windows holding a record of time {@code t}, earliest start first: windows start at
     * multiples of the advance (epoch aligned, none before 0), include their start and exclude
     * their end.
     */
    public static <K> List<Windowed<K>> timeWindows(TimeWindows windows, K key, long t) {
        long size = windows.size().toMillis();
        long advance = windows.advance().toMillis();
        List<Windowed<K>> result = new ArrayList<>();
        long lastStart = t - Math.floorMod(t, advance);
        for (long start = lastStart; start > t - size && start >= 0; start -= advance) {
            result.add(0, new Windowed<>(key, start, start + size));
        }
        return result;
    }

    /**
     * The sessions of one key's record times (any order): times that follow each other within the
     * inactivity gap ({@code next - previous <= gap}) are one session, from its first to its last
     * time, both inclusive. Earliest first.
     */
    public static <K> List<Windowed<K>> sessions(SessionWindows windows, K key, List<Long> times) {
        long gap = windows.inactivityGap().toMillis();
        List<Long> sorted = times.stream().sorted().toList();
        List<Windowed<K>> sessions = new ArrayList<>();
        long start = 0;
        long end = 0;
        for (int i = 0; i < sorted.size(); i++) {
            long t = sorted.get(i);
            if (i > 0 && t - end <= gap) {
                end = t;
                continue;
            }
            if (i > 0) {
                sessions.add(new Windowed<>(key, start, end));
            }
            start = t;
            end = t;
        }
        if (!sorted.isEmpty()) {
            sessions.add(new Windowed<>(key, start, end));
        }
        return sessions;
    }

    /** True when a watermark at {@code watermark} has closed time window {@code w} (no allowed lateness). */
    public static boolean closed(Windowed<?> w, long watermark) {
        return watermark >= w.end();
    }

    /** True when a watermark at {@code watermark} has closed session {@code w}: it can grow no more in order. */
    public static boolean closed(Windowed<?> session, SessionWindows windows, long watermark) {
        return watermark > session.end() + windows.inactivityGap().toMillis();
    }
}
