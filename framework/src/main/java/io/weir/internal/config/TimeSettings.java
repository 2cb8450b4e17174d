package io.weir.internal.config;

import io.weir.time.TimestampSource;
import java.time.Duration;
import java.util.List;

/**
 * The settings of event time and windows, declared as {@link Settings} declares the others: where
 * a record's time comes from, how the watermark moves, and what happens to records too late for
 * their window. {@link Settings#ALL} lists them with the others.
 */
public final class TimeSettings {

    private TimeSettings() {}

    /** What happens to a record too late for a window (past its allowed lateness). */
    public enum LateRecordsMode {
        TOPIC,
        DROP
    }

    public static final Setting<TimestampSource> DEFAULT_TIMESTAMP = new Setting<>(
            "default.timestamp",
            "record",
            Setting.enumOf(TimestampSource.class),
            "time of records from sources without an extractor: `record`"
                    + " (the Kafka timestamp), `log_append` (the topic must use `LogAppendTime`) or `wall_clock`");
    public static final Setting<Duration> MAX_OUT_OF_ORDERNESS_MS = new Setting<>(
            "max.out.of.orderness.ms",
            "0",
            Setting.millisAtLeast(0),
            "how far the watermark trails the largest time seen");
    public static final Setting<Duration> IDLE_TIMEOUT_MS = new Setting<>(
            "idle.timeout.ms",
            "30000",
            Setting.millisAtLeast(0),
            "wall-clock time after which a partition without records stops holding the" + " watermark back");
    public static final Setting<Long> EARLY_RESULTS_MAX_LAG_RECORDS = new Setting<>(
            "early.results.max.lag.records",
            "50000",
            Setting.longAtLeast(0),
            "records an instance's tasks together may be behind their inputs"
                    + " (buffered, or still on the brokers) and still write the early results of `Emit.early(interval)`;"
                    + " further behind they skip them until it has caught up (`0`: never skips)");
    public static final Setting<LateRecordsMode> LATE_RECORDS_MODE = new Setting<>(
            "late.records.mode",
            "topic",
            Setting.enumOf(LateRecordsMode.class),
            "`topic`: records too late for their window go to"
                    + " `late.records.topic`; `drop`: counted in `weir.records.late` and dropped");
    public static final Setting<String> LATE_RECORDS_TOPIC = Setting.derived(
            "late.records.topic",
            "`" + InternalTopic.LATE_RECORDS.of("<application.id>") + "`",
            Setting.nonEmpty(),
            v -> InternalTopic.LATE_RECORDS.of(v.get(Settings.APPLICATION_ID)),
            "where records too late for their window go");
    public static final Setting<Duration> WINDOW_CHANGELOG_ADDITIONAL_RETENTION_MS = new Setting<>(
            "window.changelog.additional.retention.ms",
            "86400000",
            Setting.millisAtLeast(0),
            "how much longer than its store a window or session changelog keeps records (its `retention.ms`"
                    + " runs on wall-clock time, the store's on event time)");

    /** The time settings in documentation order, as {@link Settings#ALL} lists them. */
    static final List<Setting<?>> ALL = List.of(
            DEFAULT_TIMESTAMP,
            MAX_OUT_OF_ORDERNESS_MS,
            IDLE_TIMEOUT_MS,
            EARLY_RESULTS_MAX_LAG_RECORDS,
            LATE_RECORDS_MODE,
            LATE_RECORDS_TOPIC,
            WINDOW_CHANGELOG_ADDITIONAL_RETENTION_MS);
}
