package io.weir.dsl;

import java.time.Duration;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * When a time or session window emits its result (its trigger). Every mode emits the final result
 * once the watermark has passed the window (exactly once under exactly-once: the emission is
 * committed with the watermark that caused it); they differ in what they emit before and after.
 * Each emitted record carries a header {@code weir.pane}: {@code early}, {@code final},
 * {@code late} or {@code update}; a session merged away after it was emitted is retracted with a
 * {@code null} value and {@code retract}; a count window closed by its timeout has {@code timeout}.
 *
 * <ul>
 *   <li>{@link #atWatermark()}: the result when the watermark passes the window's end, then an
 *       updated result for each late record within the allowed lateness (Flink's default). The
 *       default.</li>
 *   <li>{@link #onWindowClose()}: one result per window, when the watermark passes its end plus
 *       the allowed lateness (Kafka Streams' {@code suppress(untilWindowCloses)}). Late records
 *       within the lateness are included silently. With no allowed lateness it is the same as
 *       {@code atWatermark}.</li>
 *   <li>{@link #early(Duration)}, {@link #earlyEvery(long)}: as {@code atWatermark}, plus
 *       approximate results while the window is open, every interval of processing time or every
 *       N records of the window. Early results are best effort: after a restart the count towards
 *       the next early result starts again. The interval trigger skips its early results while
 *       the instance (all its tasks together) is further behind its inputs than
 *       {@code early.results.max.lag.records}, so an overloaded instance writes fewer of them,
 *       not more.</li>
 *   <li>{@link #everyUpdate()}: a result for every record (no final marker beyond the last one).</li>
 * </ul>
 */
public final class Emit {

    /** The emission modes; {@link #EARLY} comes with an interval of processing time or of records. */
    public enum Kind {
        ON_WINDOW_CLOSE,
        AT_WATERMARK,
        EARLY,
        EVERY_UPDATE
    }

    private static final Emit ON_WINDOW_CLOSE = new Emit(Kind.ON_WINDOW_CLOSE, null, 0);
    private static final Emit AT_WATERMARK = new Emit(Kind.AT_WATERMARK, null, 0);
    private static final Emit EVERY_UPDATE = new Emit(Kind.EVERY_UPDATE, null, 0);

    private final Kind kind;
    private final Duration earlyInterval;
    private final long earlyRecords;

    private Emit(Kind kind, Duration earlyInterval, long earlyRecords) {
        this.kind = kind;
        this.earlyInterval = earlyInterval;
        this.earlyRecords = earlyRecords;
    }

    public static Emit onWindowClose() {
        return ON_WINDOW_CLOSE;
    }

    public static Emit atWatermark() {
        return AT_WATERMARK;
    }

    /** Early results every {@code interval} of processing time for windows that changed. */
    public static Emit early(Duration interval) {
        if (interval == null || interval.toMillis() < 1) {
            throw new IllegalArgumentException("the early-result interval must be at least 1 ms, was " + interval);
        }
        return new Emit(Kind.EARLY, interval, 0);
    }

    /** Early results every {@code records} records of a window. */
    public static Emit earlyEvery(long records) {
        if (records < 1) {
            throw new IllegalArgumentException("early results need at least 1 record between them, was " + records);
        }
        return new Emit(Kind.EARLY, null, records);
    }

    public static Emit everyUpdate() {
        return EVERY_UPDATE;
    }

    public Kind kind() {
        return kind;
    }

    /** With {@link #early(Duration)}: the processing time between early results; empty otherwise. */
    public Optional<Duration> earlyInterval() {
        return Optional.ofNullable(earlyInterval);
    }

    /** With {@link #earlyEvery(long)}: the records of a window between early results; empty otherwise. */
    public OptionalLong earlyRecords() {
        return earlyRecords == 0 ? OptionalLong.empty() : OptionalLong.of(earlyRecords);
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof Emit e
                && kind == e.kind
                && Objects.equals(earlyInterval, e.earlyInterval)
                && earlyRecords == e.earlyRecords;
    }

    @Override
    public int hashCode() {
        return Objects.hash(kind, earlyInterval, earlyRecords);
    }

    @Override
    public String toString() {
        return switch (kind) {
            case ON_WINDOW_CLOSE -> "Emit.onWindowClose()";
            case AT_WATERMARK -> "Emit.atWatermark()";
            case EVERY_UPDATE -> "Emit.everyUpdate()";
            case EARLY ->
                earlyInterval != null ? "Emit.early(" + earlyInterval + ")" : "Emit.earlyEvery(" + earlyRecords + ")";
        };
    }
}
