package io.weir.testing;

import io.weir.Topology;
import io.weir.WeirApp;
import io.weir.config.WeirConfig;
import java.nio.file.Path;

/**
 * An application process as an operator runs it, for rollout and stall tests: counts records per
 * key in the store {@code counts} (exactly-once, default flush interval, so a clean stop is what
 * flushes the stores) and writes each key's count to {@code output}, then blocks in
 * {@link WeirApp#runUntilShutdown()} until SIGTERM or {@code POST /admin/leave}.
 *
 * <p>Args: bootstrap input output stateDir applicationId instanceId [threads, default 1]. HTTP on
 * a free port. Other settings come from {@code WEIR_*} environment variables, as in a deployment.
 * Prints {@code HTTP port=<port> instance=<id>} once started and {@code STOPPED} when
 * {@code runUntilShutdown} returns; the process then exits by itself (exit code 0) unless a
 * thread of the instance keeps it up.
 */
public final class OpsApp {

    /** The line printed once started; the port follows it. */
    public static final String STARTED = "HTTP port=";

    private OpsApp() {}

    /** The count per key, from {@code input} to {@code output}. */
    public static Topology topology(String input, String output) {
        return CountingApp.topology(input, output);
    }

    /**
     * The settings a child app of {@code OpsInstance} takes from its arguments: bootstrap servers
     * (0), state directory (3), application id (4), instance id (5), stream threads (6, default 1);
     * HTTP on a free port.
     */
    public static WeirConfig.Builder config(String[] args) {
        return WeirConfig.builder()
                .bootstrapServers(args[0])
                .stateDir(Path.of(args[3]))
                .applicationId(args[4])
                .instanceId(args[5])
                .numStreamThreads(args.length > 6 ? Integer.parseInt(args[6]) : 1)
                .set("http.port", 0);
    }

    /** Tells the parent test where {@code app} answers and who it is (the line {@code OpsInstance} waits for). */
    public static void announce(WeirApp app) {
        System.out.println(STARTED + app.httpPort().orElseThrow() + " instance="
                + app.instanceId().orElseThrow());
    }

    public static void main(String[] args) throws Exception {
        Topology topology = topology(args[1], args[2]);
        WeirApp app = WeirApp.create(topology, config(args).build()).start();
        announce(app);
        System.out.flush();
        app.runUntilShutdown();
        System.out.println("STOPPED");
        System.out.flush();
    }
}
