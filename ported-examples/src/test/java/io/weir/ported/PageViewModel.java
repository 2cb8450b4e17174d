package io.weir.ported;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The page-view tests' input and what both page-view examples compute from it, worked out here
 * without Weir: the region of each view (its user's profile then, else {@code UNKNOWN}), then, for
 * each window the view falls in (ascending start), the count of that region's views in the window.
 */
final class PageViewModel {

    static final long T0 = 1_764_000_000_000L;

    /** A profile or a view, in the order they are piped. */
    record Event(boolean profile, String user, String regionOrPage, long timestamp) {}

    /** One output: a window of a region, and its count. */
    record Count(long windowStart, String region, long count) {}

    static final List<Event> EVENTS = List.of(
            new Event(true, "alice", "europe", T0),
            new Event(true, "bob", "asia", T0),
            new Event(false, "alice", "index", T0 + 1_000),
            new Event(false, "bob", "news", T0 + 1_500),
            new Event(false, "carol", "about", T0 + 2_000), // no profile: UNKNOWN
            new Event(false, "alice", "news", T0 + 2_500),
            new Event(true, "alice", "asia", T0 + 3_000), // alice moves
            new Event(false, "alice", "index", T0 + 3_500),
            new Event(false, "bob", "index", T0 + 9_000)); // past the first windows

    private PageViewModel() {}

    static List<Count> expected(long size, long advance) {
        Map<String, String> regions = new HashMap<>();
        Map<String, List<Long>> viewTimes = new HashMap<>();
        List<Count> out = new ArrayList<>();
        for (Event e : EVENTS) {
            if (e.profile()) {
                regions.put(e.user(), e.regionOrPage());
                continue;
            }
            String region = regions.getOrDefault(e.user(), "UNKNOWN");
            List<Long> times = viewTimes.computeIfAbsent(region, r -> new ArrayList<>());
            times.add(e.timestamp());
            long lastStart = e.timestamp() - e.timestamp() % advance;
            for (long start = Math.max(0, lastStart - size + advance); start <= lastStart; start += advance) {
                long s = start;
                long count = times.stream().filter(t -> t >= s && t < s + size).count();
                out.add(new Count(start, region, count));
            }
        }
        return out;
    }
}
