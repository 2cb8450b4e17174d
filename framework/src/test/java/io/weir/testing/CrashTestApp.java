package io.weir.testing;

import io.weir.TopologyBuilder;
import io.weir.serde.Serdes;

/**
 * An application process for fault tests: reads {@code input}, writes {@code value + ":done"}
 * with the key unchanged to {@code output}. Args: bootstrap input output stateDir applicationId
 * [guarantee]. Prints READY once started; runs until killed or terminated. Reads WEIR_* variables
 * like any application, so tests can misconfigure it through the environment.
 */
public final class CrashTestApp {

    private CrashTestApp() {}

    public static void main(String[] args) throws InterruptedException {
        String input = args[1];
        String output = args[2];
        String guarantee = args.length > 5 ? args[5] : "exactly_once";

        TopologyBuilder b = new TopologyBuilder();
        b.stream(Serdes.strings(), Serdes.strings(), input)
                .mapValues(v -> v + ":done")
                .to(output, Serdes.strings(), Serdes.strings());
        CrashApps.runUntilShutdown(
                b.build(),
                CrashApps.config(args[0], args[3], args[4])
                        .set("processing.guarantee", guarantee)
                        .build());
        System.out.println("STOPPED");
    }
}
