package io.weir.testing;

import io.weir.testkit.ChildJvm;
import java.time.Duration;

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
}
