package io.weir.testing;

import io.weir.TopologyBuilder;
import io.weir.WeirApp;
import io.weir.config.WeirConfig;
import io.weir.serde.Serdes;
import java.nio.file.Path;

/**
 * An application process for fault tests: reads {@code input}, writes {@code value + ":done"}
 * with the key unchanged to {@code output}. Args: bootstrap input output stateDir applicationId
 * [guarantee]. Prints READY once started; runs until killed or terminated. Reads WEIR_* variables
 * like any application, so tests can misconfigure it through the environment.
 */
public final class CrashTestApp {

    private CrashTestApp() {}

    public static void main(String[] args) throws Exception {
        String bootstrap = args[0];
        String input = args[1];
        String output = args[2];
        Path stateDir = Path.of(args[3]);
        String appId = args[4];
        String guarantee = args.length > 5 ? args[5] : "exactly_once";

        TopologyBuilder b = new TopologyBuilder();
        b.stream(Serdes.strings(), Serdes.strings(), input)
                .mapValues(v -> v + ":done")
                .to(output, Serdes.strings(), Serdes.strings());
        WeirConfig config = WeirConfig.builder()
                .applicationId(appId)
                .bootstrapServers(bootstrap)
                .stateDir(stateDir)
                .set("processing.guarantee", guarantee)
                .set("num.stream.threads", 2)
                .set("http.port", 0)
                .build();
        WeirApp app = WeirApp.create(b.build(), config).start();
        System.out.println("READY instance=" + app.instanceId().orElseThrow());
        System.out.flush();
        app.runUntilShutdown();
        System.out.println("STOPPED");
    }
}
