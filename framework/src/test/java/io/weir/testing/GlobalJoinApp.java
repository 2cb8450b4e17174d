package io.weir.testing;

import io.weir.Topology;
import io.weir.TopologyBuilder;
import io.weir.dsl.GlobalTable;
import io.weir.serde.Serdes;

/**
 * An application process for global-table tests: events of {@code args[1]} (any key, the value
 * names a reference row) joined with the global table of {@code args[2]}, written to
 * {@code args[3]} as {@code value=row}. Args: bootstrap events reference output stateDir
 * applicationId. Prints READY once started; runs until killed or terminated.
 */
public final class GlobalJoinApp {

    private GlobalJoinApp() {}

    public static Topology topology(String events, String reference, String output) {
        TopologyBuilder b = new TopologyBuilder();
        GlobalTable<String, String> ref = b.globalTable(Serdes.strings(), Serdes.strings(), reference, "reference");
        b.stream(Serdes.strings(), Serdes.strings(), events)
                .join(ref, (k, refKey) -> refKey, (refKey, row) -> refKey + "=" + row)
                .to(output, Serdes.strings(), Serdes.strings());
        return b.build();
    }

    public static void main(String[] args) throws InterruptedException {
        CrashApps.runUntilShutdown(
                topology(args[1], args[2], args[3]),
                CrashApps.config(args[0], args[4], args[5]).build());
    }
}
