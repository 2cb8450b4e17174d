package io.weir.samples.sensors;

import io.weir.Topology;
import io.weir.TopologyBuilder;
import io.weir.dsl.GroupedStream;
import io.weir.dsl.TimeWindows;
import io.weir.samples.common.WindowModel;
import io.weir.serde.Serdes;
import io.weir.state.Windowed;
import io.weir.time.Timestamps;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The worked example's windowed sums over sensor readings: per sensor, the sum of the values of each
 * 1-minute tumbling window, and of each 1-minute window sliding every 30 s.
 *
 * <pre>
 * sensor-readings (String sensor → SensorReading JSON; event time = measuredAt)
 *   → groupByKey
 *   ├→ windowedBy(TimeWindows.of(1 min))                 .aggregate(sum)  (store "sums-1m")
 *   │    → sensor-sums-1m            (Windowed&lt;String&gt; → Long)
 *   └→ windowedBy(TimeWindows.of(1 min).advanceBy(30 s)) .aggregate(sum)  (store "sums-1m-every-30s")
 *        → sensor-sums-1m-every-30s  (Windowed&lt;String&gt; → Long)
 * </pre>
 *
 * <p>Each window's sum is emitted once, when the task's watermark (the largest event time seen
 * minus {@code max.out.of.orderness.ms}) passes the window's end ({@code weir.pane=final}).
 */
public final class SensorSums {

    public static final TimeWindows TUMBLING = TimeWindows.of(Duration.ofMinutes(1));
    public static final TimeWindows SLIDING =
            TimeWindows.of(Duration.ofMinutes(1)).advanceBy(Duration.ofSeconds(30));
    public static final String TUMBLING_STORE = "sums-1m";
    public static final String SLIDING_STORE = "sums-1m-every-30s";

    /** Its input topic by default. */
    public static final String INPUT_TOPIC = "sensor-readings";
    /** The tumbling windows' output topic by default. */
    public static final String TUMBLING_TOPIC = "sensor-sums-1m";
    /** The sliding windows' output topic by default. */
    public static final String SLIDING_TOPIC = "sensor-sums-1m-every-30s";

    private SensorSums() {}

    /**
     * The topology as the {@code sensor-sums} sample runs it with its default options: the provider that
     * {@code weir topology diff}, {@code weir savepoint restore} and {@code weir topics} load with
     * {@code --topology io.weir.samples.sensors.SensorSums} (see docs/replay-and-savepoints.md, "Giving the CLI your topology").
     */
    public static Topology topology() {
        return topology(INPUT_TOPIC, TUMBLING_TOPIC, SLIDING_TOPIC);
    }

    public static Topology topology(String input, String tumblingOutput, String slidingOutput) {
        TopologyBuilder b = new TopologyBuilder();
        GroupedStream<String, SensorReading> bySensor = b.stream(
                        Serdes.strings(),
                        Serdes.json(SensorReading.class),
                        Timestamps.eventTime(SensorReading::measuredAt),
                        input)
                .groupByKey();
        bySensor.windowedBy(TUMBLING)
                .aggregate(() -> 0L, (sensor, reading, sum) -> sum + reading.value(), Serdes.longs(), TUMBLING_STORE)
                .to(tumblingOutput, Serdes.windowed(Serdes.strings()), Serdes.longs());
        bySensor.windowedBy(SLIDING)
                .aggregate(() -> 0L, (sensor, reading, sum) -> sum + reading.value(), Serdes.longs(), SLIDING_STORE)
                .to(slidingOutput, Serdes.windowed(Serdes.strings()), Serdes.longs());
        return b.build();
    }

    /**
     * What a run must emit for one window definition, from what it feeds (the model of the check).
     *
     * @param addends the values each window sums, in feed order, for every window a reading fell in
     *                (closed or not)
     * @param sums    the sums the application must emit: those of the windows the final watermark
     *                closed
     * @param late    the windows the delayed reading came too late for (the watermark had passed
     *                their end): each is one record on the late-records topic
     */
    record Expected(
            Map<Windowed<String>, List<Long>> addends, Map<Windowed<String>, Long> sums, List<Windowed<String>> late) {}

    /**
     * The model: every reading counts in each window of {@code windows} it falls in, except the
     * delayed reading in the windows whose end the watermark had reached when it arrived (the
     * largest time fed before it minus {@code outOfOrderness}); a window is emitted once the final
     * watermark (the closing readings' time minus {@code outOfOrderness}) reaches its end.
     */
    static Expected expected(SampleSensorReadings readings, TimeWindows windows, Duration outOfOrderness) {
        long ooo = outOfOrderness.toMillis();
        long watermarkAtDelayed = readings.largestTimeBeforeDelayed() - ooo;
        Map<Windowed<String>, List<Long>> addends = new TreeMap<>(SensorSums::compare);
        List<Windowed<String>> late = new ArrayList<>();
        for (SensorReading r : readings.feedOrder()) {
            for (Windowed<String> w : WindowModel.timeWindows(windows, r.sensor(), r.measuredAt())) {
                if (r.equals(readings.delayed()) && WindowModel.closed(w, watermarkAtDelayed)) {
                    late.add(w);
                } else {
                    addends.computeIfAbsent(w, k -> new ArrayList<>()).add(r.value());
                }
            }
        }
        long finalWatermark = readings.closingTime() - ooo;
        Map<Windowed<String>, Long> sums = new LinkedHashMap<>();
        addends.forEach((w, values) -> {
            if (WindowModel.closed(w, finalWatermark)) {
                sums.put(w, values.stream().mapToLong(Long::longValue).sum());
            }
        });
        return new Expected(addends, sums, late);
    }

    /** Sensor, then window start. */
    static int compare(Windowed<String> a, Windowed<String> b) {
        int bySensor = a.key().compareTo(b.key());
        return bySensor != 0 ? bySensor : Long.compare(a.start(), b.start());
    }
}
