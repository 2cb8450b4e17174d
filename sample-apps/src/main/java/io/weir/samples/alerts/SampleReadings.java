package io.weir.samples.alerts;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;

/**
 * Generates readings for a fixed set of sensors, one round (one reading per sensor) at a time.
 * Temperatures come from a seeded {@link Random}, uniform in 60–100 °F with one decimal, so about
 * a quarter exceed 90 and the same seed always gives the same temperatures. Round {@code n} is
 * stamped {@code start + n × interval}; with the sensor id this makes every reading, and so every
 * alert, unique across rounds.
 *
 * <p>Not thread-safe: one feeder thread owns it.
 */
final class SampleReadings {

    static final double MIN_TEMPERATURE = 60.0;
    static final double MAX_TEMPERATURE = 100.0;

    private final Random random;
    private final int sensors;
    private final long startMillis;
    private final long intervalMillis;
    private long round;

    SampleReadings(long seed, int sensors, long startMillis, long intervalMillis) {
        if (sensors < 1) {
            throw new IllegalArgumentException("sensors must be at least 1, was " + sensors);
        }
        this.random = new Random(seed);
        this.sensors = sensors;
        this.startMillis = startMillis;
        this.intervalMillis = intervalMillis;
    }

    /** The id of sensor {@code index}: {@code sensor-0}, {@code sensor-1}, ... */
    static String sensorId(int index) {
        return "sensor-" + index;
    }

    /** The next round: one reading per sensor, in sensor order. */
    List<Reading> nextRound() {
        long timestamp = startMillis + round * intervalMillis;
        round++;
        List<Reading> readings = new ArrayList<>(sensors);
        for (int s = 0; s < sensors; s++) {
            readings.add(new Reading(sensorId(s), nextTemperature(), timestamp));
        }
        return readings;
    }

    /** The next {@code count} rounds, oldest first (sensors interleaved, as they would arrive). */
    List<Reading> nextRounds(int count) {
        List<Reading> readings = new ArrayList<>(count * sensors);
        for (int i = 0; i < count; i++) {
            readings.addAll(nextRound());
        }
        return readings;
    }

    private double nextTemperature() {
        double t = MIN_TEMPERATURE + random.nextDouble() * (MAX_TEMPERATURE - MIN_TEMPERATURE);
        // One decimal, as a thermometer reports it; the alert line prints what the topic holds.
        return Math.round(t * 10) / 10.0;
    }
}
