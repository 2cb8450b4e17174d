package io.weir.samples.sensors;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;

/**
 * The readings the sensor-sums sample feeds, in the order it feeds them: every sensor measures
 * every 15 s of event time for a few minutes from {@code base} (a whole minute). {@code sensor-1}
 * is the worked example's sensor and starts with its values 9, 6, 8, 4, 7, 3; every other value comes from a
 * seeded {@link Random} (1 to 9), so the same seed gives the same readings.
 *
 * <ul>
 *   <li><b>Out of order:</b> {@code sensor-2}'s reading at 1:45 is fed after every sensor's
 *       2:00 reading (its network was slow): the watermark then stands at 2:00 minus the
 *       out-of-orderness, so with any out-of-orderness above 0 its window [1:00, 2:00) is still
 *       open and the reading counts; with 0 it is late.</li>
 *   <li><b>Closing readings:</b> a reading per sensor at {@code minutes} + 1:15, after a pause
 *       with no readings, moves every partition's watermark past the end of every window that
 *       holds the regular readings (as long as the out-of-orderness is under a minute). The
 *       windows holding the closing readings stay open.</li>
 * </ul>
 */
final class SampleSensorReadings {

    static final Duration INTERVAL = Duration.ofSeconds(15);
    /** The worked example's readings of one sensor, every 15 s. */
    static final List<Long> SEED_VALUES = List.of(9L, 6L, 8L, 4L, 7L, 3L);

    static final String SEED_SENSOR = "sensor-1";
    static final String DELAYED_SENSOR = "sensor-2";
    /** When the delayed reading was measured, after base. */
    static final Duration DELAYED_AT = Duration.ofSeconds(105);
    /** The readings after which the delayed one is fed: every sensor's reading at 2:00. */
    static final Duration DELAYED_AFTER = Duration.ofMinutes(2);

    static final int MIN_SENSORS = 2;
    static final int MIN_MINUTES = 3;

    private final long base;
    private final List<SensorReading> regular = new ArrayList<>();
    private final List<SensorReading> closing = new ArrayList<>();
    private final List<SensorReading> feedOrder = new ArrayList<>();
    private final long closingTime;
    private SensorReading delayed;

    SampleSensorReadings(long seed, int sensors, int minutes, long base) {
        if (sensors < MIN_SENSORS || minutes < MIN_MINUTES) {
            throw new IllegalArgumentException("at least " + MIN_SENSORS + " sensors and " + MIN_MINUTES
                    + " minutes, were " + sensors + " and " + minutes);
        }
        if (base % 60_000 != 0) {
            throw new IllegalArgumentException("the readings start at a whole minute, not " + base);
        }
        this.base = base;
        Random random = new Random(seed);
        int rounds = (int) (Duration.ofMinutes(minutes).toMillis() / INTERVAL.toMillis());
        List<SensorReading> held = new ArrayList<>();
        for (int round = 0; round < rounds; round++) {
            long at = base + round * INTERVAL.toMillis();
            for (int s = 1; s <= sensors; s++) {
                String sensor = sensorId(s);
                long value = sensor.equals(SEED_SENSOR) && round < SEED_VALUES.size()
                        ? SEED_VALUES.get(round)
                        : 1 + random.nextInt(9);
                SensorReading r = new SensorReading(sensor, value, at);
                regular.add(r);
                if (sensor.equals(DELAYED_SENSOR) && at == base + DELAYED_AT.toMillis()) {
                    delayed = r;
                    held.add(r);
                } else {
                    feedOrder.add(r);
                }
            }
            if (at == base + DELAYED_AFTER.toMillis()) {
                feedOrder.addAll(held);
            }
        }
        this.closingTime = base + Duration.ofMinutes(minutes).plusSeconds(75).toMillis();
        for (int s = 1; s <= sensors; s++) {
            SensorReading r = new SensorReading(sensorId(s), 1 + random.nextInt(9), closingTime);
            closing.add(r);
            feedOrder.add(r);
        }
    }

    static String sensorId(int index) {
        return "sensor-" + index;
    }

    /** When the readings start: minute 0:00. */
    long base() {
        return base;
    }

    /** Every reading in the order it is fed: the delayed one after the 2:00 round, the closing ones last. */
    List<SensorReading> feedOrder() {
        return List.copyOf(feedOrder);
    }

    /** The regular readings (every sensor every 15 s), in event-time order. */
    List<SensorReading> regular() {
        return List.copyOf(regular);
    }

    /** The reading fed out of order. */
    SensorReading delayed() {
        return delayed;
    }

    /** The time of the reading fed just before the delayed one: the partition's largest time then. */
    long largestTimeBeforeDelayed() {
        return base + DELAYED_AFTER.toMillis();
    }

    /** The time of the closing readings, the largest of every partition that holds a sensor. */
    long closingTime() {
        return closingTime;
    }
}
