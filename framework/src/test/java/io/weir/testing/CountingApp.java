package io.weir.testing;

import io.weir.TopologyBuilder;
import io.weir.WeirApp;
import io.weir.config.WeirConfig;
import io.weir.serde.Serdes;
import java.nio.file.Path;

/**
 * An application process for stateful fault tests: counts records per key in the store
 * {@code counts} and writes each key's count to {@code output}. Args: bootstrap input output
 * stateDir applicationId [by-value]; with {@code by-value} it counts per value instead,
 * repartitioning through {@code <app>-counts-repartition}. Stores flush at every commit so a
 * restart replays a short tail. Prints READY once started; runs until killed or terminated.
 */
public final class CountingApp {

    private CountingApp() {}

    public static void main(String[] args) throws Exception {
        TopologyBuilder b = new TopologyBuilder();
        var stream = b.stream(Serdes.strings(), Serdes.strings(), args[1]);
        var grouped = args.length > 5 && args[5].equals("by-value")
                ? stream.groupBy((k, v) -> v, Serdes.strings())
                : stream.groupByKey();
        grouped.count("counts").toStream().to(args[2], Serdes.strings(), Serdes.longs());
        WeirConfig config = WeirConfig.builder()
                .bootstrapServers(args[0])
                .stateDir(Path.of(args[3]))
                .applicationId(args[4])
                .set("num.stream.threads", 2)
                .set("state.flush.interval.ms", 1)
                .set("http.port", 0)
                .build();
        WeirApp app = WeirApp.create(b.build(), config).start();
        System.out.println("READY instance=" + app.instanceId().orElseThrow());
        System.out.flush();
        app.runUntilShutdown();
    }
}
