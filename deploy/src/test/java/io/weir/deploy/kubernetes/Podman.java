package io.weir.deploy.kubernetes;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * {@code podman} as these machines need it: every command with {@code CONTAINERS_CONF} pointing at
 * {@code deploy/compose/podman/containers.conf} (runc, and ulimits the sandbox accepts: there is no
 * {@code --ulimit} flag for {@code kube play}), bounded by a time-out. Thread-safe (stateless).
 */
final class Podman {

    private final Map<String, String> env;

    private Podman(Path containersConf) {
        this.env = Map.of("CONTAINERS_CONF", containersConf.toString());
    }

    static Podman forRepository(Path repositoryRoot) {
        Path conf = repositoryRoot.resolve("deploy/compose/podman/containers.conf");
        if (!Files.isRegularFile(conf)) {
            throw new IllegalStateException("no " + conf + ": run from the repository");
        }
        return new Podman(conf);
    }

    CommandLine.Result run(Duration timeout, String... args) {
        List<String> command = new ArrayList<>();
        command.add("podman");
        command.addAll(List.of(args));
        return CommandLine.run(command, timeout, env);
    }

    /** Runs and fails with podman's output when the status is not 0. */
    String require(Duration timeout, String... args) {
        return run(timeout, args).requireSuccess("podman " + String.join(" ", args)).output();
    }
}
