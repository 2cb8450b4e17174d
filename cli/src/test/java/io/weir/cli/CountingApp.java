package io.weir.cli;

import io.weir.Topology;
import io.weir.TopologyBuilder;
import io.weir.WeirApp;
import io.weir.config.WeirConfig;
import io.weir.serde.Serdes;
import java.nio.file.Path;
import java.util.Map;

/**
 * The stateful application of the CLI's tests: counts records per key (store {@code counts},
 * changelog {@code <app>-counts-changelog}) and writes each new count to the output.
 * {@link #topology()} is what {@code --topology io.weir.cli.CountingApp} loads: it reads
 * {@link #INPUT} and writes {@link #OUTPUT}.
 */
public final class CountingApp {

    static final String INPUT = "cli-it-input";
    static final String OUTPUT = "cli-it-output";

    private CountingApp() {}

    public static Topology topology() {
        return topology(INPUT, OUTPUT);
    }

    static Topology topology(String input, String output) {
        TopologyBuilder b = new TopologyBuilder();
        b.stream(Serdes.strings(), Serdes.strings(), input)
                .groupByKey()
                .count("counts")
                .toStream()
                .to(output, Serdes.strings(), Serdes.longs());
        return b.build();
    }

    /** An instance with its own state directory and instance id, no HTTP port clash, no WEIR_* environment. */
    static WeirApp start(Topology topology, String bootstrap, String appId, Path stateDir, String instanceId) {
        WeirConfig config = WeirConfig.builder()
                .applicationId(appId)
                .bootstrapServers(bootstrap)
                .stateDir(stateDir)
                .instanceId(instanceId)
                .set("http.port", 0)
                .environment(Map.of())
                .build();
        return WeirApp.create(topology, config).start();
    }
}
