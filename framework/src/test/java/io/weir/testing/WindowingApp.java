package io.weir.testing;

import io.weir.Topology;
import io.weir.TopologyBuilder;
import io.weir.common.KeyValue;
import io.weir.dsl.Emit;
import io.weir.dsl.TimeWindows;
import io.weir.serde.Serdes;
import io.weir.testkit.ChildJvm;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

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

    /**
     * Starts the application in a child JVM of its own (see {@link CrashApps}) and waits until it
     * is ready: the count of {@code input} per 1 s window and key or ({@code byValue}) value into
     * {@code output}.
     */
    public static ChildJvm start(
            String bootstrap,
            String input,
            String output,
            Path stateDir,
            String appId,
            long outOfOrdernessMs,
            boolean byValue) {
        List<String> args = new ArrayList<>(
                List.of(bootstrap, input, output, stateDir.toString(), appId, Long.toString(outOfOrdernessMs)));
        if (byValue) {
            args.add("by-value");
        }
        return CrashApps.start(WindowingApp.class, args.toArray(String[]::new));
    }

    public static void main(String[] args) throws InterruptedException {
        Topology topology = topology(args[1], args[2], args.length > 6 && args[6].equals("by-value"));
        CrashApps.runUntilShutdown(
                topology,
                CrashApps.config(args[0], args[3], args[4])
                        .set("max.out.of.orderness.ms", args[5])
                        .set("state.flush.interval.ms", 1000)
                        .build());
    }
}
