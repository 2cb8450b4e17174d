package io.weir.testing;

import io.weir.Topology;
import io.weir.TopologyBuilder;
import io.weir.WeirApp;
import io.weir.common.KeyValue;
import io.weir.config.WeirConfig;
import io.weir.dsl.Emit;
import io.weir.dsl.TimeWindows;
import io.weir.serde.Serdes;
import java.nio.file.Path;
import java.time.Duration;

/**
 * An application process for window fault tests: counts records per key in 1-second tumbling
 * event-time windows (out-of-orderness {@code args[5]} ms, emitted on close) and writes
 * {@code key@windowStart -> count} to {@code output}. Args: bootstrap input output stateDir
 * applicationId outOfOrdernessMs [by-value]; with {@code by-value} it counts per value instead,
 * repartitioning through {@code <app>-window-counts-repartition}. Prints READY once started; runs
 * until killed or terminated.
 */
public final class WindowingApp {

    private WindowingApp() {}

    /** The windowed count, per key or ({@code byValue}) per value through a repartition topic. */
    public static Topology topology(String input, String output, boolean byValue) {
        TopologyBuilder b = new TopologyBuilder();
        var stream = b.stream(Serdes.strings(), Serdes.strings(), input);
        var grouped = byValue ? stream.groupBy((k, v) -> v, Serdes.strings()) : stream.groupByKey();
        grouped.windowedBy(TimeWindows.of(Duration.ofSeconds(1)))
                .emit(Emit.onWindowClose())
                .count("window-counts")
                .map((w, count) -> KeyValue.of(w.key() + "@" + w.start(), count))
                .to(output, Serdes.strings(), Serdes.longs());
        return b.build();
    }

    public static void main(String[] args) throws Exception {
        Topology topology = topology(args[1], args[2], args.length > 6 && args[6].equals("by-value"));
        WeirConfig config = WeirConfig.builder()
                .bootstrapServers(args[0])
                .stateDir(Path.of(args[3]))
                .applicationId(args[4])
                .set("num.stream.threads", 2)
                .set("max.out.of.orderness.ms", args[5])
                .set("state.flush.interval.ms", 1000)
                .set("http.port", 0)
                .build();
        WeirApp app = WeirApp.create(topology, config).start();
        System.out.println("READY instance=" + app.instanceId().orElseThrow());
        System.out.flush();
        app.runUntilShutdown();
    }
}
