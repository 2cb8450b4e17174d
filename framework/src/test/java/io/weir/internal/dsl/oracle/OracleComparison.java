package io.weir.internal.dsl.oracle;

import io.weir.internal.dsl.oracle.Emitted.Window;
import io.weir.internal.dsl.oracle.OracleStream.Input;
import io.weir.internal.dsl.oracle.OracleStream.WindowKind;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.Deque;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.SortedSet;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * Compares what Weir and Kafka Streams emitted for one {@link OracleStream}, and checks Weir's late
 * records against the input. Each check adds a line to {@link #differences}; an empty list means
 * the two agree. The flush key's windows are left out. For sessions, Kafka Streams' side is the
 * stream run without the records that Weir's rule for closed sessions makes late, which count as
 * dropped ({@link #asWeirDiffers}).
 *
 * <p>The checks:
 * <ul>
 *   <li><b>results</b>: per aggregation (count, sum), the final result of every window is the same.
 *       For time windows each window is emitted once, on both sides, with a non-null value. For
 *       sessions the results are applied in order (a {@code null} removes the session) and the
 *       final maps are compared;</li>
 *   <li><b>sequences</b>: per key, the emitted records (window and value) are the same, in the same
 *       order (across keys the order of results that fire together differs, see
 *       {@link WindowBoundariesTest});</li>
 *   <li><b>timestamps</b>: session results have the same timestamps; time-window results are
 *       stamped by Weir with the window's last instant (where Kafka Streams takes the latest
 *       record's, see {@link WindowBoundariesTest});</li>
 *   <li><b>late records</b>: every input record that Kafka Streams dropped as late (per window, as
 *       its {@code dropped-records-total} counts) is on Weir's late-records topic as many times, and
 *       no other; each has the headers of its window and the watermark it met, and that window is
 *       closed at that watermark: the window that holds the record, or for a session record late by
 *       Weir's rule alone, exactly the closed session the rule names;</li>
 *   <li><b>contributions</b>: every input record is either in Kafka Streams' count of each window
 *       that contains it, or in Weir's late records for that window (for sessions: per key, the
 *       counts of the results that stand plus the late records are the records).</li>
 * </ul>
 */
final class OracleComparison {

    private final OracleStream stream;
    private final Results kafka;
    private final Results weir;
    /** Sessions: the closed session each record late by Weir's rule alone is reported late for. */
    private final Map<Integer, Window> lateFor;

    private final List<String> differences = new ArrayList<>();

    private OracleComparison(OracleStream stream, Results kafka, Results weir, Map<Integer, Window> lateFor) {
        this.stream = stream;
        this.kafka = kafka;
        this.weir = weir;
        this.lateFor = lateFor;
    }

    /** The differences between the two sides, empty if they agree. */
    static List<String> differences(OracleStream stream, Results kafka, Results weir) {
        AsWeir expected = asWeirDiffers(stream, kafka);
        OracleComparison c = new OracleComparison(stream, expected.kafka(), weir, expected.lateFor());
        c.compareResults(WeirSide.COUNTS, c.kafka.counts(), weir.counts());
        c.compareResults(WeirSide.SUMS, c.kafka.sums(), weir.sums());
        c.compareDropped();
        c.checkLateHeaders();
        c.checkContributions();
        return List.copyOf(c.differences);
    }

    /**
     * Kafka Streams' results as Weir produces them, with the one deliberate difference applied
     * (see {@link WindowBoundariesTest} and {@code SessionWindowProcessor}): a session record
     * within the gap of a closed session of its key is late in Weir, so Kafka Streams runs the
     * stream without the records that rule makes late, which count as dropped, and each of them
     * that Kafka Streams would have accepted is reported late for that closed session
     * ({@link ClosedSessionRule}). Time windows are returned unchanged.
     */
    static AsWeir asWeirDiffers(OracleStream stream, Results kafka) {
        if (stream.kind() != WindowKind.SESSION) {
            return new AsWeir(kafka, Map.of());
        }
        ClosedSessionRule.Applied rule = ClosedSessionRule.apply(stream, kafka);
        return new AsWeir(rule.results(), rule.lateFor());
    }

    /**
     * {@link #asWeirDiffers}: Kafka Streams' results as Weir differs from them, and for each
     * record late by Weir's rule alone, the closed session it is reported late for.
     */
    record AsWeir(Results kafka, Map<Integer, Window> lateFor) {}

    /** Both sides' outputs, for a failure message. */
    static String describe(Results kafka, Results weir) {
        return "\n  Kafka Streams counts: " + withoutFlush(kafka.counts())
                + "\n  Weir counts:          " + withoutFlush(weir.counts())
                + "\n  Kafka Streams sums:   " + withoutFlush(kafka.sums())
                + "\n  Weir sums:            " + withoutFlush(weir.sums())
                + "\n  Kafka Streams dropped (offset=windows): " + dropped(kafka.droppedPerOffset())
                + "\n  Weir late records:    " + weir.late();
    }

    private static String dropped(int[] perOffset) {
        Map<Integer, Integer> nonZero = new LinkedHashMap<>();
        for (int i = 0; i < perOffset.length; i++) {
            if (perOffset[i] != 0) {
                nonZero.put(i, perOffset[i]);
            }
        }
        return nonZero.toString();
    }

    static List<Emitted> withoutFlush(List<Emitted> emitted) {
        return emitted.stream()
                .filter(e -> !e.key().equals(OracleStream.FLUSH_KEY))
                .toList();
    }

    private void compareResults(String aggregation, List<Emitted> kafkaAll, List<Emitted> weirAll) {
        List<Emitted> k = withoutFlush(kafkaAll);
        List<Emitted> w = withoutFlush(weirAll);
        if (stream.kind() != WindowKind.SESSION) {
            checkEmittedOnce(aggregation, "Kafka Streams", k);
            checkEmittedOnce(aggregation, "Weir", w);
        }
        Map<Window, Long> kafkaFinal = finalResults(k);
        Map<Window, Long> weirFinal = finalResults(w);
        if (!kafkaFinal.equals(weirFinal)) {
            differences.add(aggregation + ": final results differ: " + mapDiff(kafkaFinal, weirFinal));
        }
        Map<String, List<Emitted>> kafkaByKey = byKey(k);
        Map<String, List<Emitted>> weirByKey = byKey(w);
        for (String key : union(kafkaByKey.keySet(), weirByKey.keySet())) {
            List<Emitted> kOfKey = kafkaByKey.getOrDefault(key, List.of());
            List<Emitted> wOfKey = weirByKey.getOrDefault(key, List.of());
            List<String> kSeq =
                    kOfKey.stream().map(e -> e.window() + "=" + e.value()).toList();
            List<String> wSeq =
                    wOfKey.stream().map(e -> e.window() + "=" + e.value()).toList();
            if (!kSeq.equals(wSeq)) {
                differences.add(aggregation + ": emitted sequences of key " + key + " differ:\n    Kafka Streams "
                        + kSeq + "\n    Weir          " + wSeq);
            } else if (stream.kind() != WindowKind.SESSION) {
                wOfKey.stream()
                        .filter(e -> e.timestamp() != e.end() - 1)
                        .forEach(e -> differences.add(aggregation + ": Weir stamped " + e
                                + " with another time than the window's last instant"));
            } else {
                for (int i = 0; i < kOfKey.size(); i++) {
                    if (kOfKey.get(i).timestamp() != wOfKey.get(i).timestamp()) {
                        differences.add(
                                aggregation + ": timestamp of " + kOfKey.get(i).window() + ": Kafka Streams "
                                        + kOfKey.get(i).timestamp() + ", Weir "
                                        + wOfKey.get(i).timestamp());
                    }
                }
            }
        }
    }

    /**
     * The records of each key, in emission order: the order that Kafka keeps, whereas results of
     * different keys may go to different partitions.
     */
    private static Map<String, List<Emitted>> byKey(List<Emitted> emitted) {
        Map<String, List<Emitted>> byKey = new TreeMap<>();
        emitted.forEach(
                e -> byKey.computeIfAbsent(e.key(), x -> new ArrayList<>()).add(e));
        return byKey;
    }

    private static SortedSet<String> union(Set<String> a, Set<String> b) {
        SortedSet<String> union = new TreeSet<>(a);
        union.addAll(b);
        return union;
    }

    private void checkEmittedOnce(String aggregation, String side, List<Emitted> emitted) {
        Map<Window, Integer> times = new HashMap<>();
        for (Emitted e : emitted) {
            if (e.value() == null) {
                differences.add(aggregation + ": " + side + " emitted a null for time window " + e.window());
            }
            if (times.merge(e.window(), 1, Integer::sum) == 2) {
                differences.add(aggregation + ": " + side + " emitted " + e.window() + " more than once");
            }
        }
    }

    /** The results applied in order: a value sets the window's result, a null removes it. */
    static Map<Window, Long> finalResults(List<Emitted> emitted) {
        Map<Window, Long> results = new TreeMap<>(Comparator.comparing(Window::key)
                .thenComparingLong(Window::start)
                .thenComparingLong(Window::end));
        for (Emitted e : emitted) {
            if (e.value() == null) {
                results.remove(e.window());
            } else {
                results.put(e.window(), e.value());
            }
        }
        return results;
    }

    private static String mapDiff(Map<Window, Long> kafka, Map<Window, Long> weir) {
        StringBuilder s = new StringBuilder();
        for (var e : kafka.entrySet()) {
            if (!Objects.equals(weir.get(e.getKey()), e.getValue())) {
                s.append("\n    ")
                        .append(e.getKey())
                        .append(": Kafka Streams ")
                        .append(e.getValue())
                        .append(", Weir ")
                        .append(weir.get(e.getKey()));
            }
        }
        for (var e : weir.entrySet()) {
            if (!kafka.containsKey(e.getKey())) {
                s.append("\n    ")
                        .append(e.getKey())
                        .append(": Kafka Streams none, Weir ")
                        .append(e.getValue());
            }
        }
        return s.toString();
    }

    /**
     * Per key, the counts of the session results that stand: every emitted result that no later
     * {@code null} of the same window withdrew. A window emitted twice without a retraction in
     * between (Kafka Streams at the closing boundary, without {@link ClosedSessionRule}) counts
     * twice: each result holds records the other does not.
     */
    private static Map<String, Long> standingCountsPerKey(List<Emitted> counts) {
        Map<Window, Deque<Long>> standing = new HashMap<>();
        for (Emitted e : counts) {
            Deque<Long> results = standing.computeIfAbsent(e.window(), w -> new ArrayDeque<>());
            if (e.value() == null) {
                results.pollLast();
            } else {
                results.addLast(e.value());
            }
        }
        Map<String, Long> perKey = new HashMap<>();
        standing.forEach((window, results) -> results.forEach(n -> perKey.merge(window.key(), n, Long::sum)));
        return perKey;
    }

    private void compareDropped() {
        if (!Arrays.equals(kafka.droppedPerOffset(), weir.droppedPerOffset())) {
            for (int i = 0; i < stream.inputs().size(); i++) {
                if (kafka.droppedPerOffset()[i] != weir.droppedPerOffset()[i]) {
                    differences.add("late: record #" + i + " " + stream.inputs().get(i) + " (watermark "
                            + stream.watermarkBefore(i) + ") dropped from " + kafka.droppedPerOffset()[i]
                            + " window(s) by Kafka Streams, from " + weir.droppedPerOffset()[i] + " by Weir");
                }
            }
        }
    }

    /**
     * Each late record names the window it missed, which is closed at the watermark it met: its
     * time window; its session (which holds it), or for a record late by Weir's rule alone, the
     * closed session it would touch ({@link ClosedSessionRule}).
     */
    private void checkLateHeaders() {
        for (LateRecord late : weir.late()) {
            Input input = stream.inputs().get(late.offset());
            long watermark = stream.watermarkBefore(late.offset());
            Window touched = lateFor.get(late.offset());
            boolean windowOk = stream.kind() == WindowKind.SESSION
                    ? (touched != null
                                    ? touched.equals(new Window(late.key(), late.windowStart(), late.windowEnd()))
                                    : late.windowStart() <= input.timestamp() && input.timestamp() <= late.windowEnd())
                            && late.windowEnd() + stream.gap() + stream.grace() <= watermark
                    : late.windowStart() <= input.timestamp()
                            && input.timestamp() < late.windowEnd()
                            && late.windowStart() % stream.advance() == 0
                            && late.windowEnd() == late.windowStart() + stream.size()
                            && late.windowEnd() + stream.grace() <= watermark;
            if (!late.key().equals(input.key())
                    || late.timestamp() != input.timestamp()
                    || late.watermark() != watermark
                    || !windowOk
                    || !(late.operator().equals(WeirSide.COUNTS)
                            || late.operator().equals(WeirSide.SUMS))) {
                differences.add("late record headers: " + late + " for input " + input + " at watermark " + watermark);
            }
        }
    }

    private void checkContributions() {
        Map<Window, Long> kafkaCounts = finalResults(withoutFlush(kafka.counts()));
        Map<Window, Integer> lateCounts = new HashMap<>();
        Map<String, Integer> latePerKey = new HashMap<>();
        for (LateRecord late : weir.late()) {
            if (late.operator().equals(WeirSide.COUNTS)) {
                lateCounts.merge(new Window(late.key(), late.windowStart(), late.windowEnd()), 1, Integer::sum);
                latePerKey.merge(late.key(), 1, Integer::sum);
            }
        }
        List<Input> inputs = stream.inputs().stream()
                .filter(i -> !i.key().equals(OracleStream.FLUSH_KEY))
                .toList();
        if (stream.kind() == WindowKind.SESSION) {
            Map<String, Integer> records = new HashMap<>();
            inputs.forEach(i -> records.merge(i.key(), 1, Integer::sum));
            Map<String, Long> counted = standingCountsPerKey(withoutFlush(kafka.counts()));
            records.forEach((key, n) -> {
                long accounted = counted.getOrDefault(key, 0L) + latePerKey.getOrDefault(key, 0);
                if (accounted != n) {
                    differences.add("contributions: key " + key + " has " + n + " records; Kafka Streams' standing"
                            + " results count " + counted.getOrDefault(key, 0L) + " and Weir reported "
                            + latePerKey.getOrDefault(key, 0) + " late");
                }
            });
            return;
        }
        Map<Window, Integer> records = new HashMap<>();
        for (Input i : inputs) {
            // Kafka Streams' TimeWindows.windowsFor
            long advance = stream.advance();
            long start = Math.max(0, i.timestamp() - stream.size() + advance) / advance * advance;
            for (; start <= i.timestamp(); start += advance) {
                records.merge(new Window(i.key(), start, start + stream.size()), 1, Integer::sum);
            }
        }
        records.forEach((window, n) -> {
            long counted = kafkaCounts.getOrDefault(window, 0L);
            int late = lateCounts.getOrDefault(window, 0);
            if (counted + late != n) {
                differences.add("contributions: " + window + " holds " + n + " records; Kafka Streams counted "
                        + counted + " and Weir reported " + late + " late");
            }
        });
    }
}
