package io.weir.testing;

import io.weir.Topology;
import io.weir.WeirApp;
import io.weir.config.WeirConfig;
import io.weir.testkit.ChildJvm;
import java.nio.file.Path;
import java.time.Duration;
import java.util.function.Function;

/**
 * The applications the crash tests kill with SIGKILL: each runs in a child JVM of its own (so a
 * kill loses exactly what a crashed process loses), logs at WARN, and prints {@code READY} once
 * its instance started; {@link #start} returns then.
 */
public final class CrashApps {

    private static final Duration READY = Duration.ofSeconds(60);

    private CrashApps() {}

    /** Starts {@code main} with {@code args} and a 512 MiB heap, and waits until it is ready. */
    public static ChildJvm start(Class<?> main, String... args) {
        return startWithHeap(main, "512m", args);
    }

    /** Starts {@code main} with {@code args} and the given heap ({@code -Xmx}), and waits until it is ready. */
    public static ChildJvm startWithHeap(Class<?> main, String heap, String... args) {
        ChildJvm app = ChildJvm.builder(main)
                .args(args)
                .jvmOptions("-Xmx" + heap, "-XX:+UseSerialGC")
                .quietLogging()
                .start();
        app.awaitOutput("READY", READY);
        return app;
    }

    /**
     * The settings the applications share, for their {@code main}: two stream threads (so a kill
     * interrupts more than one), an HTTP port of the system's choosing (several instances on one
     * machine), and the test's broker, state directory and application id.
     */
    public static WeirConfig.Builder config(String bootstrap, String stateDir, String applicationId) {
        return WeirConfig.builder()
                .bootstrapServers(bootstrap)
                .stateDir(Path.of(stateDir))
                .applicationId(applicationId)
                .set("num.stream.threads", 2)
                .set("http.port", 0);
    }

    /**
     * The {@code main} of an application over topics named {@code <prefix>-...} ({@link JoinsApp},
     * {@link VersionedJoinApp}): args bootstrap, prefix, state directory, application id; state
     * flushed every second.
     */
    public static void runOverPrefix(Function<String, Topology> topology, String[] args) throws InterruptedException {
        runUntilShutdown(
                topology.apply(args[1]),
                config(args[0], args[2], args[3])
                        .set("state.flush.interval.ms", 1000)
                        .build());
    }

    /**
     * The child's side of {@link #start}: starts {@code topology}, prints {@code READY} with the
     * instance id, and returns once the application is shut down (it runs until killed or terminated).
     */
    public static void runUntilShutdown(Topology topology, WeirConfig config) throws InterruptedException {
        WeirApp app = WeirApp.create(topology, config).start();
        System.out.println("READY instance=" + app.instanceId().orElseThrow());
        System.out.flush();
        app.runUntilShutdown();
    }
}
