package io.weir.testing;

import io.weir.Topology;
import io.weir.TopologyBuilder;
import io.weir.WeirApp;
import io.weir.config.WeirConfig;
import io.weir.dsl.GroupedStream;
import io.weir.dsl.RecordStream;
import io.weir.serde.Serdes;
import java.nio.file.Path;
import java.util.function.Function;

/**
 * The stateful application of the tests: counts records per key in the store {@code counts} and
 * writes each key's new count to the output. Tests that run it in their JVM build it with
 * {@link #topology(String, String)}, or a variant of the count with
 * {@link #topology(String, String, String, Function)}; {@link #topology()}, from {@link #INPUT}
 * to {@link #OUTPUT}, is what the CLI's tests load by class name
 * ({@code --topology io.weir.testing.CountingApp}).
 *
 * <p>As a process, for stateful fault tests. Args: bootstrap input output stateDir applicationId
 * [by-value]; with {@code by-value} it counts per value instead, repartitioning through
 * {@code <app>-counts-repartition}. Stores flush at every commit so a restart replays a short
 * tail. Prints READY once started; runs until killed or terminated.
 */
public final class CountingApp {

    /** The input of {@link #topology()}. */
    public static final String INPUT = "counting-input";
    /** The output of {@link #topology()}. */
    public static final String OUTPUT = "counting-output";

    private CountingApp() {}

    /** The count per key from {@link #INPUT} to {@link #OUTPUT}. */
    public static Topology topology() {
        return topology(INPUT, OUTPUT);
    }

    /** The count per key from {@code input} to {@code output}. */
    public static Topology topology(String input, String output) {
        return topology(input, output, "counts", RecordStream::groupByKey);
    }

    /**
     * The count in {@code store} of the groups {@code grouping} makes of the input's records: the
     * variants of the count that tests change one thing of (the grouping, a node before it, the store's name).
     */
    public static Topology topology(
            String input,
            String output,
            String store,
            Function<RecordStream<String, String>, GroupedStream<String, String>> grouping) {
        TopologyBuilder b = new TopologyBuilder();
        grouping.apply(b.stream(Serdes.strings(), Serdes.strings(), input))
                .count(store)
                .toStream()
                .to(output, Serdes.strings(), Serdes.longs());
        return b.build();
    }

    public static void main(String[] args) throws Exception {
        boolean byValue = args.length > 5 && args[5].equals("by-value");
        Topology topology = topology(
                args[1],
                args[2],
                "counts",
                byValue ? s -> s.groupBy((k, v) -> v, Serdes.strings()) : s -> s.groupByKey());
        WeirConfig config = WeirConfig.builder()
                .bootstrapServers(args[0])
                .stateDir(Path.of(args[3]))
                .applicationId(args[4])
                .set("num.stream.threads", 2)
                .set("state.flush.interval.ms", 1)
                .set("http.port", 0)
                .build();
        WeirApp app = WeirApp.create(topology, config).start();
        System.out.println("READY instance=" + app.instanceId().orElseThrow());
        System.out.flush();
        app.runUntilShutdown();
    }
}
