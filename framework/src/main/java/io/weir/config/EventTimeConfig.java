package io.weir.config;

import io.weir.internal.config.SettingValues;
import io.weir.internal.config.TimeSettings;
import io.weir.time.TimestampSource;
import java.time.Duration;

/**
 * The event-time settings of a {@link WeirConfig} ({@link WeirConfig#eventTime()}): where a
 * record's time comes from, how the watermark trails it, and what happens to records too late for
 * their window. Validated with the rest of the configuration by {@link WeirConfig.Builder#build()};
 * immutable.
 */
public final class EventTimeConfig {

    private final SettingValues settings;

    EventTimeConfig(SettingValues settings) {
        this.settings = settings;
    }

    /** Where a record's time comes from when its source sets no extractor. */
    public TimestampSource defaultTimestamp() {
        return settings.get(TimeSettings.DEFAULT_TIMESTAMP);
    }

    /** How far the watermark trails the largest timestamp seen. */
    public Duration maxOutOfOrderness() {
        return settings.get(TimeSettings.MAX_OUT_OF_ORDERNESS_MS);
    }

    /** How far behind its input a task may be and still write early window results; 0: no limit. */
    public long earlyResultsMaxLagRecords() {
        return settings.get(TimeSettings.EARLY_RESULTS_MAX_LAG_RECORDS);
    }

    /** How long a partition without records may hold the watermark back. */
    public Duration idleTimeout() {
        return settings.get(TimeSettings.IDLE_TIMEOUT_MS);
    }

    /** True when records too late for their window go to {@link #lateRecordsTopic()}; false: counted and dropped. */
    public boolean lateRecordsToTopic() {
        return settings.get(TimeSettings.LATE_RECORDS_MODE) == TimeSettings.LateRecordsMode.TOPIC;
    }

    public String lateRecordsTopic() {
        return settings.get(TimeSettings.LATE_RECORDS_TOPIC);
    }

    /** How much longer than its store a window or session changelog keeps records. */
    public Duration windowChangelogAdditionalRetention() {
        return settings.get(TimeSettings.WINDOW_CHANGELOG_ADDITIONAL_RETENTION_MS);
    }
}
