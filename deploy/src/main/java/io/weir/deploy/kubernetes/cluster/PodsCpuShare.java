package io.weir.deploy.kubernetes.cluster;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;

/**
 * The share of the CPU all pods get together, as a node gives its pods. A kubelet runs pods under
 * one cgroup ({@code kubepods}) sized for the node's allocatable CPU, so a pod's CPU request holds
 * whatever the node's own daemons do. Podman puts pods under one cgroup too ({@code libpod_parent})
 * but weighs it as a single process against everything else on the machine, the build that runs
 * beside the scenario included. While the runner runs, that cgroup gets the weight of
 * {@link #PROCESSES} processes; the previous weight comes back on {@link #close()}. On a quiet
 * machine this changes nothing; under load it helps a little, not decisively (6 December 2026, 2
 * cores, twenty busy processes of one session, so one autogroup: {@code weir --help} in a pod with
 * a hook's CPU request took 7.5 and 6.6 s at Podman's weight, 6.1 and 5.9 s at this one, 1.6 s on
 * the quiet machine).
 */
public final class PodsCpuShare implements AutoCloseable {

    /** How many busy processes' worth of CPU the pods get together when the machine is loaded. */
    public static final int PROCESSES = 8;

    /** cgroup v1 (cgroupfs, Podman's default without systemd), then cgroup v2 with either manager. */
    private static final List<Weight> KNOWN = List.of(
            new Weight(Path.of("/sys/fs/cgroup/cpu/libpod_parent/cpu.shares"), 1024),
            new Weight(Path.of("/sys/fs/cgroup/libpod_parent/cpu.weight"), 100),
            new Weight(Path.of("/sys/fs/cgroup/machine.slice/cpu.weight"), 100));

    private record Weight(Path file, int perProcess) {}

    private final Weight weight;
    private final String previous;

    private PodsCpuShare(Weight weight, String previous) {
        this.weight = weight;
        this.previous = previous;
    }

    /**
     * Raises the pods' cgroup weight where this machine has one the runner may write (it runs as
     * root with Podman); reports what it did, or why not, as one event. Never fails the run.
     */
    public static Optional<PodsCpuShare> raise(Events events) {
        createPodmansParentIfAbsent();
        for (Weight w : KNOWN) {
            if (!Files.isWritable(w.file())) {
                continue;
            }
            try {
                String before = Files.readString(w.file()).strip();
                String raised = Integer.toString(w.perProcess() * PROCESSES);
                Files.writeString(w.file(), raised);
                events.event(
                        "kubelet",
                        "node",
                        "pods' CPU weight " + before + " -> " + raised + " (" + w.file()
                                + "): the node's share for its pods, restored at the end");
                return Optional.of(new PodsCpuShare(w, before));
            } catch (IOException e) {
                events.event("kubelet", "node", "pods keep Podman's CPU weight: cannot write " + w.file() + ": " + e);
                return Optional.empty();
            }
        }
        events.event("kubelet", "node", "pods keep Podman's CPU weight: no cgroup of Podman's pods found to weigh");
        return Optional.empty();
    }

    /**
     * Podman makes {@code libpod_parent} with its first pod; made here first (a directory in the
     * cgroup v1 cpu hierarchy is a cgroup), the weight is in place before any pod starts.
     */
    private static void createPodmansParentIfAbsent() {
        Path cpu = Path.of("/sys/fs/cgroup/cpu");
        if (Files.isDirectory(cpu) && Files.isWritable(cpu)) {
            try {
                Files.createDirectories(cpu.resolve("libpod_parent"));
            } catch (IOException e) {
                // Not ours to insist on: Podman makes it, and raise() reports what it finds.
            }
        }
    }

    @Override
    public void close() {
        try {
            Files.writeString(weight.file(), previous);
        } catch (IOException e) {
            // The cgroup went with its last pod: nothing to restore.
        }
    }
}
