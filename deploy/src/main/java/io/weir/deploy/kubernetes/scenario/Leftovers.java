package io.weir.deploy.kubernetes.scenario;

import io.weir.testkit.Podman;
import java.time.Duration;
import java.util.regex.Pattern;

/**
 * What a run of the scenario leaves in Podman: the release's pods, claims and ConfigMap volumes.
 * Removed before a run (every run starts from an empty cluster), after it, and when the run is
 * interrupted (Ctrl-C, SIGTERM), so that no pod of a run is left behind.
 */
final class Leftovers {

    /** More ordinals than the scenario ever runs. */
    private static final int ORDINALS = 6;

    private final Podman podman;
    private final String release;

    Leftovers(Podman podman, String release) {
        this.podman = podman;
        this.release = release;
    }

    /** Removes them now, and again when the JVM exits. */
    void removeNowAndAtExit() {
        remove();
        Runtime.getRuntime().addShutdownHook(new Thread(this::remove, "remove-pods"));
    }

    void remove() {
        for (int i = 0; i < ORDINALS; i++) {
            podman.run(Duration.ofSeconds(60), "pod", "rm", "-f", "-t", "0", release + "-" + i);
        }
        String volumes = podman.run(Duration.ofSeconds(30), "volume", "ls", "--format", "{{.Name}}")
                .output();
        // Only this release's: claims state-weir-<n>, per-pod volumes weir-<n>-..., the ConfigMap weir.
        Pattern ours = Pattern.compile("state-" + release + "-\\d+|" + release + "-\\d+-.+|" + release);
        volumes.lines()
                .filter(v -> ours.matcher(v).matches())
                .forEach(v -> podman.run(Duration.ofSeconds(30), "volume", "rm", "-f", v));
    }
}
