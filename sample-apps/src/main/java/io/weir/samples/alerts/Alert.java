package io.weir.samples.alerts;

/**
 * Raised for a {@link Reading} above the threshold; the value of a record on the alerts topic,
 * keyed by sensor id like its reading. Serialized as JSON with {@code Serdes.json(Alert.class)}.
 *
 * <p>The reading's sensor and timestamp identify it, so an alert can be matched to the reading
 * that caused it (the sample's exactly-once check relies on this).
 *
 * @param sensor           the sensor's id
 * @param temperature      the reading's temperature, degrees Fahrenheit
 * @param threshold        the threshold it exceeded
 * @param readingTimestamp the reading's timestamp, epoch milliseconds
 */
public record Alert(String sensor, double temperature, double threshold, long readingTimestamp) {

    /** The alert for {@code reading}; does not check that the reading exceeds the threshold. */
    public static Alert of(Reading reading, double threshold) {
        return new Alert(reading.sensor(), reading.temperature(), threshold, reading.timestamp());
    }
}
