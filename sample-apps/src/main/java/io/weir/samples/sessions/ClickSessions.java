package io.weir.samples.sessions;

import io.weir.Topology;
import io.weir.TopologyBuilder;
import io.weir.dsl.SessionWindows;
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
 * The worked example's click sessions: the clicks of each visitor that follow each other within 5 minutes
 * (the example's inactivity gap) form a session; the application counts the clicks of each session.
 *
 * <pre>
 * clicks (String visitor → Click JSON; event time = clickedAt)
 *   → groupByKey
 *   → windowedBy(SessionWindows.withInactivityGap(5 min).allowedLateness(60 min))
 *   → count                      (store "click-sessions", a session store)
 *   → click-sessions (Windowed&lt;String&gt; visitor + [first click, last click] → Long clicks)
 * </pre>
 *
 * <p>A session's result is emitted once the watermark has passed its last click plus the gap
 * ({@code weir.pane=final}): no click in order can extend it any more. A click that arrives out of
 * order within the allowed lateness can still join emitted sessions: when it merges two of them,
 * Weir retracts both emitted results (a {@code null} value for each window,
 * {@code weir.pane=retract}) and emits the merged session ({@code weir.pane=late}). Read as a
 * changelog of windows (a value sets a window's result, {@code null} deletes it), the topic then
 * holds exactly the sessions of all the clicks.
 */
public final class ClickSessions {

    public static final SessionWindows SESSIONS =
            SessionWindows.withInactivityGap(Duration.ofMinutes(5)).allowedLateness(Duration.ofMinutes(60));
    public static final String STORE = "click-sessions";

    /** Its input topic by default. */
    public static final String INPUT_TOPIC = "clicks";
    /** Its output topic by default. */
    public static final String OUTPUT_TOPIC = "click-sessions";

    private ClickSessions() {}

    /**
     * The topology as the {@code click-sessions} sample runs it with its default options: the provider that
     * {@code weir topology diff}, {@code weir savepoint restore} and {@code weir topics} load with
     * {@code --topology io.weir.samples.sessions.ClickSessions} (see docs/replay-and-savepoints.md, "Giving the CLI your topology").
     */
    public static Topology topology() {
        return topology(INPUT_TOPIC, OUTPUT_TOPIC);
    }

    public static Topology topology(String input, String output) {
        TopologyBuilder b = new TopologyBuilder();
        b.stream(Serdes.strings(), Serdes.json(Click.class), Timestamps.eventTime(Click::clickedAt), input)
                .groupByKey()
                .windowedBy(SESSIONS)
                .count(STORE)
                .to(output, Serdes.windowed(Serdes.strings()), Serdes.longs());
        return b.build();
    }

    /**
     * What a run must emit (the model of the check).
     *
     * @param sessions  the clicks of every session the final watermark closed: what must stand
     *                  at the end
     * @param open      the sessions still open at the end (the visitors' last clicks)
     * @param retracted the emitted sessions the bridging click merges, earliest first: their results
     *                  must be retracted
     * @param merged    the session they merge into
     */
    record Expected(
            Map<Windowed<String>, Long> sessions,
            List<Windowed<String>> open,
            List<Windowed<String>> retracted,
            Windowed<String> merged) {}

    /**
     * The model: sessionizes each visitor's clicks by the rules of {@link SessionWindows}
     * independently of Weir. A session is emitted once the watermark is past its end plus the gap;
     * the watermark of a partition is the largest click time it has seen (no out-of-orderness).
     */
    static Expected expected(SampleClicks clicks) {
        long closing = clicks.closingTime();
        Map<Windowed<String>, Long> sessions = new TreeMap<>(ClickSessions::compare);
        List<Windowed<String>> open = new ArrayList<>();
        sessionCounts(clicks.feedOrder()).forEach((session, count) -> {
            if (WindowModel.closed(session, SESSIONS, closing)) {
                sessions.put(session, count);
            } else {
                open.add(session);
            }
        });

        // Before the bridge arrives, its partition's watermark is at least the bridging visitor's
        // own latest click and at most the latest click of all: the same sessions must have been
        // emitted with either, or the sample data would not say what Weir must do.
        Click bridge = clicks.bridge();
        List<Click> before = clicks.beforeBridge();
        long lowest = before.stream()
                .filter(c -> c.visitor().equals(bridge.visitor()))
                .mapToLong(Click::clickedAt)
                .max()
                .orElseThrow();
        long highest = before.stream().mapToLong(Click::clickedAt).max().orElseThrow();
        long gap = SESSIONS.inactivityGap().toMillis();
        List<Windowed<String>> retracted = new ArrayList<>();
        for (Windowed<String> s : sessionCounts(before).keySet()) {
            if (!s.key().equals(bridge.visitor())
                    || s.end() < bridge.clickedAt() - gap
                    || s.start() > bridge.clickedAt() + gap) {
                continue;
            }
            boolean emitted = WindowModel.closed(s, SESSIONS, lowest);
            if (emitted != WindowModel.closed(s, SESSIONS, highest)) {
                throw new IllegalStateException("whether " + s + " was emitted before the bridging click depends on"
                        + " the partitioning: move the bridging click");
            }
            if (emitted) {
                retracted.add(s);
            }
        }
        Windowed<String> merged = sessions.keySet().stream()
                .filter(s -> s.key().equals(bridge.visitor())
                        && s.start() <= bridge.clickedAt()
                        && bridge.clickedAt() <= s.end())
                .findFirst()
                .orElseThrow();
        return new Expected(sessions, open, retracted, merged);
    }

    /** Each visitor's sessions with their number of clicks, by visitor and start. */
    static Map<Windowed<String>, Long> sessionCounts(List<Click> clicks) {
        Map<String, List<Long>> times = new TreeMap<>();
        clicks.forEach(
                c -> times.computeIfAbsent(c.visitor(), k -> new ArrayList<>()).add(c.clickedAt()));
        Map<Windowed<String>, Long> counts = new LinkedHashMap<>();
        times.forEach((visitor, ts) -> {
            for (Windowed<String> s : WindowModel.sessions(SESSIONS, visitor, ts)) {
                counts.put(
                        s,
                        ts.stream().filter(t -> s.start() <= t && t <= s.end()).count());
            }
        });
        return counts;
    }

    /** Visitor, then session start. */
    static int compare(Windowed<String> a, Windowed<String> b) {
        int byVisitor = a.key().compareTo(b.key());
        return byVisitor != 0 ? byVisitor : Long.compare(a.start(), b.start());
    }
}
