package io.weir.samples.ysb;

import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The Yahoo Streaming Benchmark's check: the count of views of every campaign in every 10-second
 * window, from the events as they are generated, against the job's results as a read_committed
 * reader sees them. Each window's final result (pane {@code final}) must come exactly once and
 * equal the count; its latency is the time the reader saw it minus the window's end. Updates before
 * it ({@code early}) are counted, not checked: a later one replaces them.
 *
 * <p>Not thread-safe: the sample's main thread owns it.
 */
public final class YsbChecker {

    private final Map<String, String> campaignOfAd;
    private final long windowMs;
    private final Map<String, Long> expected = new TreeMap<>();
    private final Map<String, Long> finals = new HashMap<>();
    private final List<String> problems = new ArrayList<>();
    private final List<Long> latencies = new ArrayList<>();
    private final Map<String, Long> latencyOf = new TreeMap<>();
    private long updates;
    private long views;
    private long events;

    public YsbChecker(Map<String, String> campaignOfAd, long windowMs) {
        this.campaignOfAd = campaignOfAd;
        this.windowMs = windowMs;
    }

    /** An event was sent: a view of a campaign's ad counts in its window. */
    public void sent(AdEvent e) {
        events++;
        String campaign = campaignOfAd.get(e.adId());
        if ("view".equals(e.eventType()) && campaign != null) {
            views++;
            expected.merge(campaign + "@" + Math.floorDiv(e.eventTime(), windowMs) * windowMs, 1L, Long::sum);
        }
    }

    /** A result was read at {@code seenAtMs} (wall clock); {@code pane} is its {@code weir.pane} header. */
    public void received(String window, Long count, String pane, long seenAtMs) {
        if (!"final".equals(pane)) {
            updates++;
            return;
        }
        Long before = finals.put(window, count);
        if (before != null) {
            problems.add(window + ": final result twice (" + before + ", then " + count + ")");
            return;
        }
        Long want = expected.get(window);
        if (!count.equals(want)) {
            problems.add(window + ": final count " + count + ", expected " + want);
        }
        long end = Long.parseLong(window.substring(window.lastIndexOf('@') + 1)) + windowMs;
        latencies.add(seenAtMs - end);
        latencyOf.put(window, seenAtMs - end);
    }

    /** The latency of each window measured, by window. */
    public Map<String, Long> latencyByWindow() {
        return Collections.unmodifiableMap(latencyOf);
    }

    /** True once every window with views has its final result. */
    public boolean complete() {
        return finals.keySet().containsAll(expected.keySet());
    }

    /** True if every window came once with its count, and nothing else came. */
    public boolean passed() {
        return problems.isEmpty() && complete() && expected.keySet().containsAll(finals.keySet());
    }

    public long events() {
        return events;
    }

    public long views() {
        return views;
    }

    public int windows() {
        return expected.size();
    }

    /** The final-update latencies seen, in milliseconds. */
    public List<Long> latencies() {
        return Collections.unmodifiableList(latencies);
    }

    /** The latency at quantile {@code q} (0 to 1), or -1 without any. */
    public long latencyQuantile(double q) {
        if (latencies.isEmpty()) {
            return -1;
        }
        List<Long> sorted = new ArrayList<>(latencies);
        Collections.sort(sorted);
        int rank = (int) Math.ceil(q * sorted.size()) - 1; // nearest rank
        return sorted.get(Math.max(0, Math.min(sorted.size() - 1, rank)));
    }

    /** What went wrong, one line each; windows still missing included. */
    public List<String> problems() {
        List<String> all = new ArrayList<>(problems);
        expected.keySet().stream()
                .filter(w -> !finals.containsKey(w))
                .limit(10)
                .forEach(w -> all.add(w + ": no final result (expected " + expected.get(w) + ")"));
        finals.keySet().stream()
                .filter(w -> !expected.containsKey(w))
                .limit(10)
                .forEach(w -> all.add(w + ": a final result for a window without views"));
        return all;
    }

    /** Updates written before the final ones, per window. */
    public double updatesPerWindow() {
        return expected.isEmpty() ? 0 : (double) updates / expected.size();
    }

    /** One line: windows, exactness, latencies, updates. */
    public String summary() {
        return windows() + " windows, "
                + (passed() ? "every final count exact" : problems().size() + " problem(s)")
                + "; final-update latency p50 " + latencyQuantile(0.5) + " ms, p99 " + latencyQuantile(0.99)
                + " ms, max " + latencyQuantile(1.0) + " ms; "
                + String.format(java.util.Locale.ROOT, "%.1f", updatesPerWindow()) + " earlier updates per window";
    }
}
