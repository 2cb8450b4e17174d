package io.weir.testkit;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * {@code podman} as it works on the machines that run Weir's container checks, every call bounded
 * by a time-out ({@link Command}). Two set-ups, for two kinds of caller:
 * <ul>
 *   <li>{@link #withRuncWhenPresent()}: {@code --runtime /usr/sbin/runc} when runc is installed
 *       (crun, Podman's default, is refused in some sandboxes), and {@link #ULIMITS} for the
 *       callers' {@code podman run}s;</li>
 *   <li>{@link #withContainersConf(Path)}: every command with {@code CONTAINERS_CONF} pointing at a
 *       {@code containers.conf} (runc, and ulimits the sandbox accepts: {@code kube play} has no
 *       {@code --ulimit} flag).</li>
 * </ul>
 * Thread-safe (immutable).
 */
public final class Podman {

    /** Limits for {@code podman run}: the defaults Podman asks for are refused here (see deploy/containers/lib.sh). */
    public static final List<String> ULIMITS = List.of("--ulimit", "nofile=20000:20000", "--ulimit", "nproc=4096:4096");

    private final List<String> globalFlags;
    private final Map<String, String> env;

    private Podman(List<String> globalFlags, Map<String, String> env) {
        this.globalFlags = globalFlags;
        this.env = env;
    }

    /** With runc when it is installed, as deploy/containers/lib.sh chooses. */
    public static Podman withRuncWhenPresent() {
        return new Podman(
                Files.isExecutable(Path.of("/usr/sbin/runc")) ? List.of("--runtime", "/usr/sbin/runc") : List.of(),
                Map.of());
    }

    /** Every command with {@code CONTAINERS_CONF=containersConf}; fails if that file does not exist. */
    public static Podman withContainersConf(Path containersConf) {
        if (!Files.isRegularFile(containersConf)) {
            throw new IllegalStateException("no " + containersConf + ": run from the repository");
        }
        return new Podman(List.of(), Map.of("CONTAINERS_CONF", containersConf.toString()));
    }

    /** Runs {@code podman args...}; killed after {@code timeout} (exit status -1). */
    public Command.Result run(Duration timeout, String... args) {
        List<String> command = new ArrayList<>();
        command.add("podman");
        command.addAll(globalFlags);
        command.addAll(List.of(args));
        return Command.run(command, timeout, env);
    }

    /** Runs and returns the output; fails with Podman's output when the status is not 0. */
    public String require(Duration timeout, String... args) {
        return run(timeout, args)
                .requireSuccess("podman " + String.join(" ", args))
                .output();
    }
}
