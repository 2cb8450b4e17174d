package io.weir.ported;

import io.weir.Topology;
import io.weir.TopologyBuilder;
import io.weir.dsl.Emit;
import io.weir.dsl.TimeWindows;
import io.weir.serde.Serdes;
import java.time.Duration;

/**
 * Apache Kafka's {@code TemperatureDemo}: temperature readings (text) regrouped under one key, the
 * highest of each 5-second tumbling window (24 hours of grace) kept, and the windows whose highest
 * reading is above 20 degrees written out at every change.
 */
final class Temperature {

    static final String INPUT = "iot-temperature";
    static final String OUTPUT = "iot-temperature-max";
    static final int THRESHOLD = 20;
    static final Duration WINDOW = Duration.ofSeconds(5);

    private Temperature() {}

    static Topology topology() {
        TopologyBuilder b = new TopologyBuilder();
        b.stream(Serdes.strings(), Serdes.strings(), INPUT)
                .selectKey((key, reading) -> "temp")
                .withSerdes(Serdes.strings(), Serdes.strings())
                .groupByKey()
                .windowedBy(TimeWindows.of(WINDOW).allowedLateness(Duration.ofHours(24)))
                // the original runs without a record cache: every change of a window's maximum
                .emit(Emit.everyUpdate())
                .reduce((a, b2) -> Integer.parseInt(a) > Integer.parseInt(b2) ? a : b2, "max-temperature")
                .filter((window, max) -> Integer.parseInt(max) > THRESHOLD)
                .to(OUTPUT, Serdes.windowed(Serdes.strings()), Serdes.strings());
        return b.build();
    }
}
