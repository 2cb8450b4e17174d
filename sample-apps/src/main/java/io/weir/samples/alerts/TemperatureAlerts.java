package io.weir.samples.alerts;

import io.weir.Topology;
import io.weir.TopologyBuilder;
import io.weir.serde.Serdes;

/**
 * The stateless example: read temperature readings keyed by sensor
 * id, keep those above a threshold, and write an {@link Alert} for each.
 *
 * <pre>
 * readings (String sensor → Reading JSON)
 *   → filter temperature &gt; threshold
 *   → mapValues to Alert
 *   → alerts (String sensor → Alert JSON)
 * </pre>
 *
 * <p>A value that is not a valid {@link Reading} fails in the source's deserializer, so Weir
 * sends it to the dead-letter topic ({@code <application.id>-dlq}) and carries on.
 */
public final class TemperatureAlerts {

    /** The alert threshold, degrees Fahrenheit. */
    public static final double DEFAULT_THRESHOLD = 90.0;

    private TemperatureAlerts() {}

    /**
     * The topology as {@code serve temperature-alerts} runs it, with the sample's topics: the provider that
     * {@code weir topology diff}, {@code weir savepoint restore} and {@code weir topics} load with
     * {@code --topology io.weir.samples.alerts.TemperatureAlerts} (see docs/replay-and-savepoints.md, "Giving the CLI your topology").
     */
    public static Topology topology() {
        return TemperatureAlertsService.sample()
                .topology()
                .apply(
                        TemperatureAlertsService.sample().inputTopic(),
                        TemperatureAlertsService.sample().outputTopic());
    }

    /**
     * The topology reading {@code input} and writing alerts to {@code output}. Both topics must
     * exist before the application starts; giving them the same partition count keeps a
     * sensor's alerts in the partition number of its readings.
     */
    public static Topology topology(String input, String output, double threshold) {
        TopologyBuilder builder = new TopologyBuilder();
        builder.stream(Serdes.strings(), Serdes.json(Reading.class), input)
                .filter((sensor, reading) -> isAlert(reading, threshold))
                .mapValues(reading -> Alert.of(reading, threshold))
                .to(output, Serdes.strings(), Serdes.json(Alert.class));
        return builder.build();
    }

    /**
     * Whether {@code reading} raises an alert: strictly above the threshold, so a reading of
     * exactly 90.0 does not. A tombstone (null value) carries no reading and raises nothing.
     */
    public static boolean isAlert(Reading reading, double threshold) {
        return reading != null && reading.temperature() > threshold;
    }
}
