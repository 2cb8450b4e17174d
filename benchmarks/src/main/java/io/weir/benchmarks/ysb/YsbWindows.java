package io.weir.benchmarks.ysb;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;

/**
 * The Yahoo Streaming Benchmark's check and latency, from the views the generator sent
 * ({@link YsbEvents#expectedCounts()}) and the counts a {@code read_committed} reader saw
 * ({@link YsbOutput}), the same for both systems:
 * <ul>
 *   <li>a window is <em>complete</em> once the reader has seen its exact count; its latency is
 *       that moment minus the window's end. Counts only grow, so this is when the window's last
 *       update became visible;</li>
 *   <li>a system that marks its final results (Weir's {@code weir.pane: final}) must also write
 *       exactly one final count per window, equal to the views; its <em>final latency</em> is when
 *       the reader saw it minus the window's end: from then on a reader knows the count will not
 *       change;</li>
 *   <li>no count may exceed the views (a duplicate), the last count of a window must equal them,
 *       and no window without views may have a count.</li>
 * </ul>
 * Latencies are taken over the windows that end inside the measured time; a window still
 * incomplete when the run gives up counts at the give-up time (a lower bound) and is counted
 * among {@link Verdict#incomplete()}.
 */
final class YsbWindows {

    /** The problems listed in full; beyond these, only counted. */
    private static final int PROBLEMS_LISTED = 5;

    private YsbWindows() {}

    /**
     * The outcome of a run: the windows measured and how many of them were incomplete, the
     * problems over all windows, the latency quantiles (milliseconds) of completion and, for a
     * system that marks final results, of the final result, and the counts seen per window.
     */
    record Verdict(
            int windows,
            int incomplete,
            int problemCount,
            List<String> problems,
            long p50,
            long p99,
            long max,
            OptionalLong finalP50,
            OptionalLong finalP99,
            double updatesPerWindow) {

        boolean passed() {
            return problemCount == 0 && incomplete == 0;
        }
    }

    /** True once every window with views is complete (and, if {@code finalPanes}, has its final count). */
    static boolean complete(Map<String, Long> expected, Map<String, List<YsbOutput.Seen>> seen, boolean finalPanes) {
        for (Map.Entry<String, Long> e : expected.entrySet()) {
            List<YsbOutput.Seen> counts = seen.getOrDefault(e.getKey(), List.of());
            if (firstAt(counts, e.getValue(), false) < 0 || finalPanes && firstAt(counts, -1, true) < 0) {
                return false;
            }
        }
        return true;
    }

    /**
     * Judges a run whose measured windows end in {@code (fromMs, toMs]}, given up at {@code giveUpMs};
     * {@code finalPanes}: the system marks final results.
     */
    static Verdict judge(
            Map<String, Long> expected,
            Map<String, List<YsbOutput.Seen>> seen,
            boolean finalPanes,
            long windowMs,
            long fromMs,
            long toMs,
            long giveUpMs) {
        List<String> problems = new ArrayList<>();
        List<Long> visible = new ArrayList<>();
        List<Long> finals = new ArrayList<>();
        int incomplete = 0;
        int windows = 0;
        long updates = 0;
        int problemCount = 0;
        for (Map.Entry<String, Long> e : expected.entrySet()) {
            String window = e.getKey();
            long want = e.getValue();
            List<YsbOutput.Seen> counts = seen.getOrDefault(window, List.of());
            updates += counts.size();
            long completeAt = firstAt(counts, want, false);
            long finalAt = finalPanes ? firstAt(counts, -1, true) : completeAt;
            String problem = problem(counts, want, finalPanes);
            if (problem != null && problemCount++ < PROBLEMS_LISTED) {
                problems.add(window + ": " + problem);
            }
            long end = Long.parseLong(window.substring(window.lastIndexOf('@') + 1)) + windowMs;
            if (end > fromMs && end <= toMs) {
                windows++;
                if (completeAt < 0 || finalAt < 0) {
                    incomplete++;
                }
                visible.add((completeAt < 0 ? giveUpMs : completeAt) - end);
                finals.add((finalAt < 0 ? giveUpMs : finalAt) - end);
            }
        }
        for (String window : seen.keySet()) {
            if (!expected.containsKey(window) && problemCount++ < PROBLEMS_LISTED) {
                problems.add(window + ": counts for a window without views");
            }
        }
        return new Verdict(
                windows,
                incomplete,
                problemCount,
                List.copyOf(problems),
                quantile(visible, 0.5),
                quantile(visible, 0.99),
                quantile(visible, 1.0),
                finalPanes ? OptionalLong.of(quantile(finals, 0.5)) : OptionalLong.empty(),
                finalPanes ? OptionalLong.of(quantile(finals, 0.99)) : OptionalLong.empty(),
                expected.isEmpty() ? 0 : (double) updates / expected.size());
    }

    /** When the reader first saw {@code count} (any count if negative), or a final one; -1 if never. */
    private static long firstAt(List<YsbOutput.Seen> counts, long count, boolean finalPane) {
        for (YsbOutput.Seen s : counts) {
            if ((count < 0 || s.count() == count) && (!finalPane || s.finalPane())) {
                return s.atMs();
            }
        }
        return -1;
    }

    /** What is wrong with a window's counts, or null. */
    private static String problem(List<YsbOutput.Seen> counts, long want, boolean finalPanes) {
        for (YsbOutput.Seen s : counts) {
            if (s.count() > want) {
                return "count " + s.count() + " above the " + want + " views";
            }
        }
        if (finalPanes) {
            List<Long> finalCounts = counts.stream()
                    .filter(YsbOutput.Seen::finalPane)
                    .map(YsbOutput.Seen::count)
                    .toList();
            if (finalCounts.size() > 1) {
                return "final count written " + finalCounts.size() + " times " + finalCounts;
            }
            if (finalCounts.size() == 1 && finalCounts.get(0) != want) {
                return "final count " + finalCounts.get(0) + ", expected " + want;
            }
        }
        if (!counts.isEmpty() && counts.get(counts.size() - 1).count() != want && firstAt(counts, want, false) >= 0) {
            return "last count " + counts.get(counts.size() - 1).count() + " after " + want;
        }
        return null;
    }

    /** Nearest rank; 0 without values. */
    private static long quantile(List<Long> values, double q) {
        if (values.isEmpty()) {
            return 0;
        }
        List<Long> sorted = new ArrayList<>(values);
        Collections.sort(sorted);
        return sorted.get(Math.max(0, Math.min(sorted.size() - 1, (int) Math.ceil(q * sorted.size()) - 1)));
    }
}
