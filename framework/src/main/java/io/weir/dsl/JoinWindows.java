package io.weir.dsl;

import java.time.Duration;
import java.util.Objects;

/**
 * How close in event time two records must be to join in a stream-stream join: a record of this
 * stream at {@code t} joins the other stream's records of its key with timestamps in
 * {@code [t - before, t + after]} (both ends included). {@code JoinWindows.of(d)} is symmetric,
 * {@code before = after = d}; {@code of(d).before(Duration.ZERO)} joins only other records at or
 * after {@code t}, as Flink's interval join with bounds {@code [0, d]}.
 *
 * <p>Records are <em>late</em>, as for windows, when their timestamp is below the watermark minus
 * the allowed lateness: they go to the late-records topic instead of joining. Each side keeps its
 * records only while a record of the other side that is not late can still join them, so the join's
 * stores stay bounded by {@code before + after + allowedLateness} of event time.
 */
public final class JoinWindows {

    private final Duration before;
    private final Duration after;
    private final Duration allowedLateness;

    private JoinWindows(Duration before, Duration after, Duration allowedLateness) {
        Objects.requireNonNull(before, "before");
        Objects.requireNonNull(after, "after");
        Objects.requireNonNull(allowedLateness, "allowedLateness");
        if (before.isNegative() || after.isNegative()) {
            throw new IllegalArgumentException(
                    "a join window's bounds cannot be negative, were before " + before + " and after " + after);
        }
        if (allowedLateness.isNegative()) {
            throw new IllegalArgumentException("allowed lateness cannot be negative, was " + allowedLateness);
        }
        this.before = before;
        this.after = after;
        this.allowedLateness = allowedLateness;
    }

    /** Records at most {@code timeDifference} apart, either way, join; no allowed lateness. */
    public static JoinWindows of(Duration timeDifference) {
        return new JoinWindows(timeDifference, timeDifference, Duration.ZERO);
    }

    /** How far before a record of this stream the other stream's records may be. */
    public JoinWindows before(Duration before) {
        return new JoinWindows(before, after, allowedLateness);
    }

    /** How far after a record of this stream the other stream's records may be. */
    public JoinWindows after(Duration after) {
        return new JoinWindows(before, after, allowedLateness);
    }

    /**
     * How far behind the watermark a record may still arrive and join (Kafka Streams' grace
     * period); unmatched results of a left or outer join wait for it too.
     */
    public JoinWindows allowedLateness(Duration lateness) {
        return new JoinWindows(before, after, lateness);
    }

    public Duration before() {
        return before;
    }

    public Duration after() {
        return after;
    }

    public Duration allowedLateness() {
        return allowedLateness;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof JoinWindows w
                && before.equals(w.before)
                && after.equals(w.after)
                && allowedLateness.equals(w.allowedLateness);
    }

    @Override
    public int hashCode() {
        return Objects.hash(before, after, allowedLateness);
    }

    @Override
    public String toString() {
        return "JoinWindows[before=" + before + ", after=" + after + ", allowedLateness=" + allowedLateness + "]";
    }
}
