package io.weir.samples.alerts;

import io.weir.samples.common.RecordGenerator;
import io.weir.samples.common.ServedSample;
import io.weir.serde.Serde;
import io.weir.serde.Serdes;
import java.util.ArrayDeque;
import java.util.Deque;
import org.apache.kafka.clients.producer.ProducerRecord;

/**
 * The temperature alerts as a service ({@code serve temperature-alerts}, threshold 90 °F) and its
 * input for {@code load temperature-alerts}: readings of {@value #SENSORS} sensors in turn from
 * {@link SampleReadings}, stamped with the time they are sent, keyed by sensor.
 */
public final class TemperatureAlertsService {

    static final int SENSORS = 10;

    private TemperatureAlertsService() {}

    /**
     * {@code temperature-alerts}: application {@code temperature-alerts}, reads {@code readings},
     * writes {@code alerts}.
     */
    public static ServedSample sample() {
        return new ServedSample(
                "temperature-alerts",
                "temperature-alerts",
                "readings",
                "alerts",
                (in, out) -> TemperatureAlerts.topology(in, out, TemperatureAlerts.DEFAULT_THRESHOLD),
                () -> readings(System.nanoTime()));
    }

    /** Readings with temperatures chosen by {@code seed}, one sensor after another. */
    static RecordGenerator readings(long seed) {
        SampleReadings samples = new SampleReadings(seed, SENSORS, 0, 1);
        Deque<Reading> round = new ArrayDeque<>();
        Serde<String> keys = Serdes.strings();
        Serde<Reading> values = Serdes.json(Reading.class);
        return (topic, timestamp) -> {
            if (round.isEmpty()) {
                round.addAll(samples.nextRound());
            }
            Reading r = round.removeFirst();
            // Measured now: the generator's own round timestamps would be meaningless in a live feed.
            Reading now = new Reading(r.sensor(), r.temperature(), timestamp);
            return new ProducerRecord<>(
                    topic, null, timestamp, keys.serialize(topic, now.sensor()), values.serialize(topic, now));
        };
    }
}
