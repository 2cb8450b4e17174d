package io.weir.samples.alerts;

import java.util.HashSet;
import java.util.Set;

/**
 * Matches the alerts read from the output topic against the alerts the fed readings should
 * raise: the sample's exactly-once check. The check passes when every expected alert was
 * received once, none twice, and none was received that no fed reading explains.
 *
 * <p>Alerts whose reading was not fed by this run ({@link Outcome#FOREIGN}) are counted apart
 * rather than failing the check: on an existing cluster the application may re-process readings
 * fed by an earlier run (a new consumer group starts at the earliest offset).
 *
 * <p>Not thread-safe: the thread that feeds and reads owns it.
 */
final class AlertLedger {

    /** What a received alert turned out to be. */
    enum Outcome {
        FIRST,
        DUPLICATE,
        FOREIGN
    }

    private final double threshold;
    private final Set<Alert> expected = new HashSet<>();
    private final Set<Alert> received = new HashSet<>();
    private long readingsFed;
    private long duplicates;
    private long foreign;

    AlertLedger(double threshold) {
        this.threshold = threshold;
    }

    /** Notes a reading that was fed, and the alert it must raise if it exceeds the threshold. */
    void fed(Reading reading) {
        readingsFed++;
        if (TemperatureAlerts.isAlert(reading, threshold)) {
            expected.add(Alert.of(reading, threshold));
        }
    }

    /** Notes an alert read from the output topic. */
    Outcome received(Alert alert) {
        if (!expected.contains(alert)) {
            foreign++;
            return Outcome.FOREIGN;
        }
        if (!received.add(alert)) {
            duplicates++;
            return Outcome.DUPLICATE;
        }
        return Outcome.FIRST;
    }

    /** True once every expected alert has been received at least once. */
    boolean allReceived() {
        return received.size() == expected.size();
    }

    /** True when every expected alert was received exactly once. */
    boolean exactlyOnce() {
        return allReceived() && duplicates == 0;
    }

    long readingsFed() {
        return readingsFed;
    }

    int alertsExpected() {
        return expected.size();
    }

    int alertsReceived() {
        return received.size();
    }

    long duplicates() {
        return duplicates;
    }

    long foreign() {
        return foreign;
    }

    /** One line: what was fed, expected and received, and whether the check passed. */
    String summary() {
        StringBuilder s = new StringBuilder()
                .append(readingsFed)
                .append(" readings fed, ")
                .append(alertsExpected())
                .append(" alerts expected, ")
                .append(alertsReceived())
                .append(" received, ")
                .append(duplicates)
                .append(" duplicates, ")
                .append(alertsExpected() - alertsReceived())
                .append(" missing");
        if (foreign > 0) {
            s.append(", ").append(foreign).append(" from earlier runs ignored");
        }
        return s.append(": exactly-once check ")
                .append(exactlyOnce() ? "PASSED" : "FAILED")
                .toString();
    }
}
