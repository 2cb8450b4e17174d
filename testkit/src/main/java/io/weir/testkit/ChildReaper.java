package io.weir.testkit;

import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Kills child processes still running when this JVM exits. JVM-wide on purpose: a shutdown hook
 * is JVM-wide, and a test that fails before its {@code close()} must not leave a broker behind.
 */
final class ChildReaper {

    private static final Set<Process> LIVE = ConcurrentHashMap.newKeySet();

    static {
        Runtime.getRuntime().addShutdownHook(new Thread(ChildReaper::killAll, "weir-testkit-child-reaper"));
    }

    private ChildReaper() {}

    static void register(Process process) {
        LIVE.add(process);
        process.onExit().thenRun(() -> LIVE.remove(process));
    }

    private static void killAll() {
        for (Process process : LIVE) {
            process.destroyForcibly();
        }
    }
}
