package io.weir.deploy.kubernetes.cluster;

import io.fabric8.kubernetes.api.model.Container;
import io.weir.common.internal.Deadline;
import io.weir.common.internal.Worker;
import io.weir.testkit.Command;
import io.weir.testkit.Podman;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * What the kubelet does for one pod, for a pod played by Podman: starts it ({@code kube play}),
 * runs its probes with the periods, time-outs and thresholds of its spec (startup first, then
 * readiness and liveness), restarts its container when it exits (after the kubelet's
 * CrashLoopBackOff: 10 s, doubling to 5 minutes, reset once a container ran 10 minutes) or fails
 * liveness or startup (the pod's restartPolicy is Always in the chart), and deletes it as
 * Kubernetes does: the preStop hook ({@code podman exec}), then SIGTERM with what is left of
 * {@code terminationGracePeriodSeconds} ({@code podman pod stop -t}), then SIGKILL.
 *
 * <p>Probes run as {@link Probes} says. Its loop is a {@link Worker} of its own; {@link #delete} and
 * {@link #forceDelete} may be called from any thread.
 */
public final class Kubelet implements AutoCloseable {

    private static final Duration PODMAN = Duration.ofSeconds(120);
    /** The loop's tick: probes fire on their own periods, checked this often. */
    private static final Duration TICK = Duration.ofMillis(250);
    /** One podman process a pod this often to see the container's state: CPU is scarce. */
    private static final Duration STATUS_CHECK = Duration.ofSeconds(2);
    /** The kubelet's CrashLoopBackOff: the first delay, the cap, and how long a run resets it. */
    private static final Duration BACKOFF_FIRST = Duration.ofSeconds(10);

    private static final Duration BACKOFF_MAX = Duration.ofMinutes(5);
    private static final Duration BACKOFF_RESET = Duration.ofMinutes(10);

    private final Podman podman;
    private final StatefulSetPods.OrdinalPod pod;
    private final PlayManifest.Played played;
    private final Path manifest;
    private final Events events;
    private final Container container;
    private final String containerName;
    private final Probes.Schedule startup;
    private final Probes.Schedule readiness;
    private final Probes.Schedule liveness;
    private final Worker loop;

    // The loop's own state, touched by its thread alone.
    private boolean startupDone;
    private Deadline statusCheck = Deadline.after(Duration.ZERO);

    private volatile boolean terminating;
    private volatile boolean ready;
    private volatile long readySinceNanos;
    private volatile int restarts;
    /** Exits in a row (CrashLoopBackOff's exponent), when the container last started, when it restarts. */
    private int crashes;

    private long startedNanos = System.nanoTime();
    private Deadline restartAt;
    private volatile boolean gone;
    /** The pod's address, once known: a pod keeps it until it is deleted (container restarts included). */
    private volatile String address;
    /** The cluster DNS records last written to the pod's /etc/hosts (null: none yet, or lost by a restart). */
    private volatile Map<String, String> resolved;

    private Kubelet(
            Podman podman, StatefulSetPods.OrdinalPod pod, PlayManifest.Played played, Path workDir, Events events) {
        this.podman = podman;
        this.pod = pod;
        this.played = played;
        this.events = events;
        List<Container> containers = pod.pod().getSpec().getContainers();
        if (containers.size() != 1) {
            throw new IllegalArgumentException(
                    "the runner's kubelet runs pods of one container; " + pod.name() + " has " + containers.size());
        }
        this.container = containers.get(0);
        this.containerName = pod.name() + "-" + container.getName();
        this.manifest = workDir.resolve(pod.name() + ".yaml");
        play();
        // The probes' initial delays count from here, the container's start.
        Probes probes = new Probes(podman, played, pod.name(), containerName);
        this.startup = probes.schedule(container.getStartupProbe());
        this.readiness = probes.schedule(container.getReadinessProbe());
        this.liveness = probes.schedule(container.getLivenessProbe());
        this.startupDone = startup.probe == null;
        // Last: its thread starts at once. Not interrupted: a tick's podman commands run to their end.
        this.loop = Worker.named("kubelet-" + pod.name())
                .interruptOnStop(false)
                .joinTimeout(Duration.ofSeconds(30))
                .every(TICK, self -> tick());
    }

    /** Plays the pod and starts probing it. */
    public static Kubelet start(
            Podman podman, StatefulSetPods.OrdinalPod pod, PlayManifest.Played played, Path workDir, Events events) {
        return new Kubelet(podman, pod, played, workDir, events);
    }

    public StatefulSetPods.OrdinalPod pod() {
        return pod;
    }

    public String name() {
        return pod.name();
    }

    public boolean ready() {
        return ready && !terminating;
    }

    /** Ready for at least {@code minReadySeconds}: what the StatefulSet controller counts as available. */
    public boolean available(int minReadySeconds) {
        return ready() && System.nanoTime() - readySinceNanos >= minReadySeconds * 1_000_000_000L;
    }

    /** When the pod last turned ready ({@link System#nanoTime()}), or 0 before. */
    public long readySinceNanos() {
        return readySinceNanos;
    }

    public int restarts() {
        return restarts;
    }

    public boolean terminating() {
        return terminating;
    }

    public boolean gone() {
        return gone;
    }

    /** The host port a container port (name or number) is published on. */
    public int hostPort(String port) {
        return played.hostPort(port);
    }

    /** The pod's address on the pod network, while its container exists. */
    public Optional<String> address() {
        if (address != null) {
            return Optional.of(address);
        }
        Command.Result inspected = podman.run(
                PODMAN,
                "inspect",
                "--format",
                "{{range .NetworkSettings.Networks}}{{.IPAddress}}{{end}}",
                containerName);
        String found = inspected.output().strip();
        if (inspected.exitCode() != 0 || found.isEmpty()) {
            return Optional.empty();
        }
        address = found;
        return Optional.of(found);
    }

    /**
     * Plays cluster DNS for this pod: keeps {@code records} (name to address) in a block of the pod's
     * {@code /etc/hosts}, the file Podman bind-mounts into it, written in place (same inode) from the
     * host. A no-op when the records are those last written; a container restart may rewrite the file,
     * so it is written again after one.
     */
    public void resolve(Map<String, String> records) {
        if (gone || terminating || records.equals(resolved)) {
            return;
        }
        Command.Result inspected = podman.run(PODMAN, "inspect", "--format", "{{.HostsPath}}", containerName);
        String path = inspected.output().strip();
        if (inspected.exitCode() != 0 || path.isEmpty()) {
            return;
        }
        try {
            Path hosts = Path.of(path);
            Files.writeString(hosts, HostsFile.withRecords(Files.readString(hosts), records));
            resolved = Map.copyOf(records);
        } catch (IOException e) {
            events.event("kubelet", pod.name(), "cannot write cluster DNS records to " + path + ": " + e.getMessage());
        }
    }

    /**
     * Waits (up to a minute) until this pod's host ports can be bound: pods on a cluster have
     * addresses of their own, so a pod made again on its ordinal never finds its ports taken, but
     * here the ordinal's ports are the host's and the previous pod's may linger for a while after
     * it is removed. What held them is logged, for the one reading the run.
     */
    private void awaitFreeHostPorts() {
        for (int port : played.hostPorts().values().stream().distinct().toList()) {
            if (free(port)) {
                continue;
            }
            long started = System.nanoTime();
            String holder = podman.run(
                            PODMAN, "ps", "-a", "--filter", "publish=" + port, "--format", "{{.Names}} {{.Status}}")
                    .output()
                    .strip();
            boolean freed;
            try {
                freed = io.weir.common.internal.Poll.until(
                        () -> free(port), Duration.ofMinutes(1), Duration.ofMillis(200));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
            events.event(
                    "kubelet",
                    pod.name(),
                    String.format(
                            "host port %d was in use (by: %s); %s after %.1f s",
                            port,
                            holder.isEmpty() ? "no container Podman lists" : holder.replace('\n', ','),
                            freed ? "free" : "still in use",
                            (System.nanoTime() - started) / 1e9));
        }
    }

    private static boolean free(int port) {
        try (java.net.ServerSocket socket = new java.net.ServerSocket()) {
            socket.setReuseAddress(true);
            socket.bind(new java.net.InetSocketAddress("0.0.0.0", port));
            return true;
        } catch (IOException e) {
            return false;
        }
    }

    private void play() {
        try {
            Files.writeString(manifest, played.yaml());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        // A pod left by a killed earlier run would make the play fail with "name is in use".
        podman.run(PODMAN, "pod", "rm", "-f", "-t", "0", pod.name());
        awaitFreeHostPorts();
        podman.require(PODMAN, "kube", "play", manifest.toString());
        events.event("kubelet", pod.name(), "started (podman kube play), revision " + pod.revision());
    }

    /**
     * One tick of the kubelet's loop (every {@link #TICK}): the container's state every
     * {@link #STATUS_CHECK}, restarted if it is not running; then the probes that are due, startup
     * first, then readiness and liveness.
     */
    private void tick() {
        if (statusCheck.expired()) {
            statusCheck = Deadline.after(STATUS_CHECK);
            String status = podman.run(PODMAN, "inspect", "--format", "{{.State.Status}}", containerName)
                    .output()
                    .trim();
            if (terminating) {
                return;
            }
            if (!status.equals("running")) {
                setReady(false);
                restartExited(status);
                return;
            }
        }
        if (restartAt != null) {
            return; // an exited container waiting out its back-off has nothing to probe
        }
        if (!startupDone) {
            if (startup.due()) {
                if (startup.check()) {
                    startupDone = true;
                    events.event("kubelet", pod.name(), "startup probe passed");
                } else if (startup.failed()) {
                    restart("startup probe failed " + startup.failures() + " times");
                }
            }
            return;
        }
        if (readiness.due()) {
            if (readiness.check()) {
                setReady(true);
            } else if (readiness.failed()) {
                setReady(false);
            }
        } else if (readiness.probe == null) {
            setReady(true);
        }
        if (liveness.due() && !liveness.check() && liveness.failed()) {
            setReady(false);
            restart("liveness probe failed " + liveness.failures() + " times");
        }
    }

    private void setReady(boolean now) {
        if (now && !ready) {
            readySinceNanos = System.nanoTime();
            events.event("kubelet", pod.name(), "ready (readiness probe passed)");
        } else if (!now && ready) {
            events.event("kubelet", pod.name(), "not ready");
        }
        ready = now;
    }

    /**
     * An exited container, restarted after the back-off: no preStop or SIGTERM (nothing runs), as
     * the kubelet. Without the back-off a container that exits at start would be restarted every few
     * seconds, which no cluster does and which starves a small machine.
     */
    private void restartExited(String status) {
        if (restartAt == null) {
            if (System.nanoTime() - startedNanos >= BACKOFF_RESET.toNanos()) {
                crashes = 0;
            }
            Duration backoff = BACKOFF_FIRST.multipliedBy(1L << Math.min(crashes, 5));
            backoff = backoff.compareTo(BACKOFF_MAX) > 0 ? BACKOFF_MAX : backoff;
            crashes++;
            restartAt = Deadline.after(backoff);
            events.event(
                    "kubelet",
                    pod.name(),
                    "container " + status + ": restarting it in " + backoff.toSeconds()
                            + " s (CrashLoopBackOff, restartPolicy Always)");
            return;
        }
        if (!restartAt.expired()) {
            return;
        }
        restartAt = null;
        restarts++;
        resolved = null;
        podman.run(PODMAN, "start", containerName);
        startedNanos = System.nanoTime();
        events.event("kubelet", pod.name(), "container restarted after it exited (" + restarts + " restarts)");
        probesStartOver();
    }

    /** The probes start over with a new container, as the kubelet's do. */
    private void probesStartOver() {
        startupDone = startup.reset();
        readiness.reset();
        liveness.reset();
    }

    /** A container restart: preStop, SIGTERM with the grace period, then start again on the same pod. */
    private void restart(String why) {
        restarts++;
        resolved = null;
        events.event("kubelet", pod.name(), "restarting its container: " + why);
        long grace = graceSeconds();
        long left = runPreStop(grace);
        podman.run(Duration.ofSeconds(left + 30), "stop", "-t", Long.toString(left), containerName);
        if (!terminating) {
            podman.run(PODMAN, "start", containerName);
            startedNanos = System.nanoTime();
        }
        probesStartOver();
    }

    /**
     * Deletes the pod as {@code kubectl delete pod} (or the controller) does: not ready at once, the
     * preStop hook, SIGTERM, SIGKILL once the grace period is over, then the pod and its emptyDirs
     * removed ({@code kube down}; claims and ConfigMaps stay). Returns the container's exit status.
     */
    public int delete(String why) {
        markTerminating();
        ready = false;
        events.event("kubelet", pod.name(), "deleting: " + why);
        join();
        long grace = graceSeconds();
        long started = System.nanoTime();
        long left = runPreStop(grace);
        // The app container first, the pod (its infra container) after: stopping the infra container
        // tears the pod's network down, and a Weir instance stopping without network cannot commit.
        // The kubelet likewise kills the sandbox only once the containers have exited.
        podman.run(Duration.ofSeconds(left + 30), "stop", "-t", Long.toString(left), containerName);
        podman.run(PODMAN, "pod", "stop", "-t", "0", pod.name());
        String exit = podman.run(PODMAN, "inspect", "--format", "{{.State.ExitCode}}", containerName)
                .output()
                .trim();
        String log = podman.run(PODMAN, "logs", "--tail", "3", containerName)
                .output()
                .strip();
        events.event(
                "kubelet",
                pod.name(),
                String.format(
                        "stopped in %.1f s, exit status %s; its log ends: %s",
                        (System.nanoTime() - started) / 1e9, exit, log));
        down();
        try {
            return Integer.parseInt(exit);
        } catch (NumberFormatException e) {
            return -1;
        }
    }

    /** Marks the pod as being deleted (not ready, no more probes or restarts), as its deletionTimestamp does. */
    public void markTerminating() {
        terminating = true;
        ready = false;
        loop.stop();
    }

    /** {@code kubectl delete pod --grace-period=0 --force}: SIGKILL, no hook, the pod removed. */
    public void forceDelete() {
        markTerminating();
        podman.run(PODMAN, "pod", "kill", "--signal", "KILL", pod.name());
        events.event("kubelet", pod.name(), "force-deleted (SIGKILL, no preStop, no grace)");
        join();
        down();
    }

    private void down() {
        podman.run(PODMAN, "kube", "down", manifest.toString());
        podman.run(PODMAN, "pod", "rm", "-f", "-t", "0", pod.name());
        gone = true;
    }

    /** Runs the preStop hook within the grace period; returns the seconds left for SIGTERM. */
    private long runPreStop(long graceSeconds) {
        var lifecycle = pod.pod().getSpec().getContainers().get(0).getLifecycle();
        if (lifecycle == null
                || lifecycle.getPreStop() == null
                || lifecycle.getPreStop().getExec() == null) {
            return graceSeconds;
        }
        long started = System.nanoTime();
        List<String> cmd = new ArrayList<>(List.of("exec", containerName));
        cmd.addAll(lifecycle.getPreStop().getExec().getCommand());
        Command.Result r = podman.run(Duration.ofSeconds(graceSeconds), cmd.toArray(String[]::new));
        long spent = (System.nanoTime() - started) / 1_000_000_000L;
        events.event(
                "kubelet",
                pod.name(),
                "preStop hook exited " + r.exitCode() + " after " + spent + " s"
                        + (r.output().isBlank() ? "" : ": " + r.output().strip()));
        return Math.max(2, graceSeconds - spent); // the kubelet grants at least 2 s after the hook
    }

    private long graceSeconds() {
        Long g = pod.pod().getSpec().getTerminationGracePeriodSeconds();
        return g == null ? 30 : g;
    }

    /** Stops the loop and waits for its tick in progress (a no-op on the loop's own thread). */
    private void join() {
        loop.close();
    }

    @Override
    public void close() {
        if (!gone) {
            forceDelete();
        }
    }
}
