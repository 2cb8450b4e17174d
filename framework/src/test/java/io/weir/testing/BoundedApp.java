package io.weir.testing;

import io.weir.TopologyBuilder;
import io.weir.WeirApp;
import io.weir.config.WeirConfig;
import io.weir.serde.Serdes;
import java.nio.file.Path;

/**
 * A main that counts records per value (through a repartition topic) and ends with
 * {@link WeirApp#runUntilShutdown()}, as a service's main does; its run mode comes from the
 * environment ({@code WEIR_RUN_MODE}). Args: bootstrap input output stateDir applicationId.
 */
public final class BoundedApp {

    private BoundedApp() {}

    public static void main(String[] args) throws Exception {
        TopologyBuilder b = new TopologyBuilder();
        b.stream(Serdes.strings(), Serdes.strings(), args[1])
                .groupBy((k, v) -> v, Serdes.strings())
                .count("counts")
                .toStream()
                .to(args[2], Serdes.strings(), Serdes.longs());
        WeirConfig config = WeirConfig.builder()
                .bootstrapServers(args[0])
                .stateDir(Path.of(args[3]))
                .applicationId(args[4])
                .set("http.port", -1)
                .build();
        WeirApp.create(b.build(), config).runUntilShutdown();
        System.out.println("MAIN RETURNED");
    }
}
