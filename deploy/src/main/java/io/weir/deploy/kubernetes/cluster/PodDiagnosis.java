package io.weir.deploy.kubernetes.cluster;

import io.weir.testkit.Command;
import io.weir.testkit.Podman;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;

/**
 * What the runner can still see of a pod that failed, to tell its two suspected causes apart when
 * a pod could not reach a service on the host: the pod network (is the pod's interface on the
 * bridge, does the gateway answer from inside the pod's namespace) or the machine (its load, and
 * the CPU the pod's cgroup got while others ran). Read while the pod's infra container still holds
 * its network namespace, that is before the pod is removed.
 */
public final class PodDiagnosis {

    private static final Duration QUICK = Duration.ofSeconds(10);

    private PodDiagnosis() {}

    /** A few lines describing the pod's network and the machine's load; never throws. */
    public static String of(Podman podman, String podName) {
        StringBuilder out = new StringBuilder();
        out.append("load average (1, 5, 15 min; runnable/threads): ")
                .append(read(Path.of("/proc/loadavg")))
                .append('\n');
        String infraPid = podman.run(QUICK, "pod", "inspect", "--format", "{{.InfraContainerID}}", podName)
                .output()
                .trim();
        String pid = infraPid.isEmpty()
                ? ""
                : podman.run(QUICK, "inspect", "--format", "{{.State.Pid}}", infraPid)
                        .output()
                        .trim();
        if (pid.isEmpty() || pid.equals("0")) {
            out.append("the pod's infra container is gone: no network to inspect\n");
            return out.toString();
        }
        out.append("pod interface: ")
                .append(inPod(pid, "ip", "-o", "-4", "addr", "show", "eth0"))
                .append('\n');
        // A refused connection proves the gateway answers; a time-out means the packets go nowhere.
        String probe = inPod(
                pid,
                "timeout",
                "3",
                "bash",
                "-c",
                "exec 3<>/dev/tcp/" + PodNetwork.GATEWAY + "/1 && echo open || true");
        out.append("gateway ")
                .append(PodNetwork.GATEWAY)
                .append(" from inside the pod: ")
                .append(
                        probe.contains("refused") || probe.contains("open")
                                ? "answers"
                                : "NO ANSWER within 3 s (" + probe.strip() + ")")
                .append('\n');
        out.append("bridge: ")
                .append(host("ip", "-br", "addr", "show", PodNetwork.BRIDGE))
                .append("; ports: ")
                .append(host("ip", "-o", "link", "show", "master", PodNetwork.BRIDGE)
                        .lines()
                        .count())
                .append('\n');
        out.append("host neighbours on the bridge:\n")
                .append(host("ip", "neigh", "show", "dev", PodNetwork.BRIDGE))
                .append('\n');
        return out.toString();
    }

    /** {@code command} in the pod's network namespace. */
    private static String inPod(String pid, String... command) {
        List<String> all = new java.util.ArrayList<>(List.of("nsenter", "-t", pid, "-n"));
        all.addAll(List.of(command));
        return run(all);
    }

    private static String host(String... command) {
        return run(List.of(command));
    }

    private static String run(List<String> command) {
        try {
            return Command.run(command, QUICK, Map.of()).output().strip();
        } catch (RuntimeException e) {
            return "(" + command.get(0) + " failed: " + e.getMessage() + ")";
        }
    }

    private static String read(Path file) {
        try {
            return Files.readString(file).strip();
        } catch (IOException e) {
            return "(unreadable: " + e.getMessage() + ")";
        }
    }
}
