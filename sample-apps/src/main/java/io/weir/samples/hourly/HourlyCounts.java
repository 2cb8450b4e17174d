package io.weir.samples.hourly;

import io.weir.Topology;
import io.weir.TopologyBuilder;
import io.weir.dsl.Emit;
import io.weir.dsl.RecordStream;
import io.weir.dsl.TimeWindows;
import io.weir.samples.common.WindowModel;
import io.weir.serde.Serdes;
import io.weir.state.Windowed;
import io.weir.time.Timestamps;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The classic "count per key per hour, and alert as early as possible when a count passes 10", in
 * one topology instead of a batch job plus Storm (the Lambda architecture):
 *
 * <pre>
 * posts (String hashtag → Post JSON; event time = postedAt)
 *   → groupByKey
 *   → windowedBy(TimeWindows.of(1 h)).emit(Emit.earlyEvery(1))
 *   → count                         (store "posts-per-hour")
 *        every post: the hour's count so far (weir.pane=early);
 *        when the watermark passes the hour's end: its count (weir.pane=final)
 *   → process(PaneOf)               (the weir.pane header into the value: PaneCount)
 *   → split()
 *       "alert": early and count == threshold + 1  → count-alerts  (Windowed&lt;String&gt; → Long)
 *       "final": final                             → hourly-counts (Windowed&lt;String&gt; → Long)
 *       (other early counts are dropped)
 * </pre>
 *
 * <p>With {@code earlyEvery(1)} every post of an hour gives one early count, so exactly one of
 * them is {@code threshold + 1}: the moment the hour's count passes the threshold. The alert goes
 * out in the commit of that post, while the hour is open; the hour's count goes out when the
 * watermark passes its end.
 */
public final class HourlyCounts {

    public static final TimeWindows HOURS = TimeWindows.of(Duration.ofHours(1));
    public static final String STORE = "posts-per-hour";
    public static final long DEFAULT_THRESHOLD = 10;
    static final String ALERT = "alert";
    static final String FINAL = "final";

    /** Its input topic by default. */
    public static final String INPUT_TOPIC = "posts";
    /** The counts' topic by default. */
    public static final String COUNTS_TOPIC = "hourly-counts";
    /** The alerts' topic by default. */
    public static final String ALERTS_TOPIC = "count-alerts";

    private HourlyCounts() {}

    /**
     * The topology as the {@code hourly-counts} sample runs it with its default options: the provider that
     * {@code weir topology diff}, {@code weir savepoint restore} and {@code weir topics} load with
     * {@code --topology io.weir.samples.hourly.HourlyCounts} (see docs/replay-and-savepoints.md, "Giving the CLI your topology").
     */
    public static Topology topology() {
        return topology(INPUT_TOPIC, COUNTS_TOPIC, ALERTS_TOPIC, DEFAULT_THRESHOLD);
    }

    public static Topology topology(String input, String countsTopic, String alertsTopic, long threshold) {
        TopologyBuilder b = new TopologyBuilder();
        Map<String, RecordStream<Windowed<String>, PaneCount>> byPane = b.stream(
                        Serdes.strings(), Serdes.json(Post.class), Timestamps.eventTime(Post::postedAt), input)
                .groupByKey()
                .windowedBy(HOURS)
                .emit(Emit.earlyEvery(1))
                .count(STORE)
                .process(PaneOf::new, "pane-of")
                .split()
                .branch(ALERT, (hour, c) -> c.early() && c.count() == threshold + 1)
                .branch(FINAL, (hour, c) -> c.isFinal())
                .noDefault();
        byPane.get(ALERT)
                .mapValues(PaneCount::count)
                .to(alertsTopic, Serdes.windowed(Serdes.strings()), Serdes.longs());
        byPane.get(FINAL)
                .mapValues(PaneCount::count)
                .to(countsTopic, Serdes.windowed(Serdes.strings()), Serdes.longs());
        return b.build();
    }

    /**
     * What a run must emit (the model of the check).
     *
     * @param counts      each closed hour's count per hashtag: the final counts
     * @param alerts      the hours whose count passes the threshold, with the count of the alert
     *                    ({@code threshold + 1})
     * @param crossedAt   when each alert's hour passed the threshold: the time of its
     *                    ({@code threshold + 1})-th post
     * @param phaseOne    the alerts phase 1 must produce, before any hour is closed
     */
    record Expected(
            Map<Windowed<String>, Long> counts,
            Map<Windowed<String>, Long> alerts,
            Map<Windowed<String>, Long> crossedAt,
            Map<Windowed<String>, Long> phaseOne) {}

    /**
     * The model: counts the posts of each hashtag and hour; an hour is closed once the watermark
     * (the largest post time of its partition, no out-of-orderness) reaches its end, which the
     * closing posts do for both hours.
     */
    static Expected expected(SamplePosts posts, long threshold) {
        Map<Windowed<String>, List<Long>> times = new TreeMap<>(HourlyCounts::compare);
        for (Post p : posts.all()) {
            for (Windowed<String> w : WindowModel.timeWindows(HOURS, p.hashtag(), p.postedAt())) {
                times.computeIfAbsent(w, k -> new ArrayList<>()).add(p.postedAt());
            }
        }
        long phaseOneEnd = posts.base() + SamplePosts.PHASE_ONE_UNTIL.toMillis();
        Map<Windowed<String>, Long> counts = new LinkedHashMap<>();
        Map<Windowed<String>, Long> alerts = new LinkedHashMap<>();
        Map<Windowed<String>, Long> crossedAt = new LinkedHashMap<>();
        Map<Windowed<String>, Long> phaseOne = new LinkedHashMap<>();
        times.forEach((hour, ts) -> {
            if (WindowModel.closed(hour, posts.closingTime())) {
                counts.put(hour, (long) ts.size());
            }
            if (ts.size() > threshold) {
                long crossing = ts.stream().sorted().skip(threshold).findFirst().orElseThrow();
                alerts.put(hour, threshold + 1);
                crossedAt.put(hour, crossing);
                if (crossing <= phaseOneEnd) {
                    phaseOne.put(hour, threshold + 1);
                }
            }
        });
        return new Expected(counts, alerts, crossedAt, phaseOne);
    }

    /** Hour, then hashtag. */
    static int compare(Windowed<String> a, Windowed<String> b) {
        int byHour = Long.compare(a.start(), b.start());
        return byHour != 0 ? byHour : a.key().compareTo(b.key());
    }
}
