package io.weir.deploy.kubernetes.helm;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.HostAlias;
import io.fabric8.kubernetes.api.model.HostAliasBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.batch.v1.Job;
import io.weir.deploy.kubernetes.cluster.Events;
import io.weir.deploy.kubernetes.cluster.PlayManifest;
import io.weir.deploy.kubernetes.cluster.PodDiagnosis;
import io.weir.deploy.kubernetes.cluster.StatefulSetPods;
import io.weir.testkit.Podman;
import io.weir.testkit.kubernetes.KubernetesApiServer;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.function.Supplier;

/**
 * Runs a release's hooks for one event as Helm does, in hook-weight order: objects of other kinds
 * (ServiceAccount, Role, RoleBinding, ConfigMap, ...) are created or replaced in the API server; a
 * Job runs its pod template as a Pod with {@code restartPolicy: Never}, a Pod runs as it is; Helm waits for each to
 * finish and fails the operation when one fails, naming it; a Job's failed pod is replaced up to
 * its {@code backoffLimit}, after the Job controller's back-off (10 s, doubling). The pod is played like the
 * StatefulSet's ({@link PlayManifest}), so it gets the same env, volumes and service-account token.
 * The runner has no cluster DNS: each hook pod gets the headless Service's names of the pods that
 * exist when it starts as {@code hostAliases} (its {@code /etc/hosts}), so a {@code helm test} pod
 * finds them as it would through the cluster's DNS.
 */
public final class HookRunner {

    /** What one hook pod did. */
    public record Outcome(String hook, int exitCode, double seconds, String logTail) {}

    private static final Duration PODMAN = Duration.ofSeconds(120);
    private final KubernetesApiServer api;
    private final Podman podman;
    private final Path workDir;
    private final Events events;
    private final PlayManifest.Cluster cluster;
    private final Supplier<Map<String, String>> dns;

    public HookRunner(
            KubernetesApiServer api,
            Podman podman,
            Path workDir,
            Events events,
            PlayManifest.Cluster cluster,
            Supplier<Map<String, String>> dns) {
        this.api = api;
        this.podman = podman;
        this.workDir = workDir;
        this.events = events;
        this.cluster = cluster;
        this.dns = dns;
    }

    /** Runs the hooks of {@code event}; throws naming the first hook pod that failed. */
    public List<Outcome> run(Release release, String event, Duration timeout) {
        List<Outcome> outcomes = new ArrayList<>();
        for (HasMetadata hook : release.hooks(event)) {
            Pod pod = null;
            if (hook instanceof Job job) {
                var template = job.getSpec().getTemplate();
                pod = new PodBuilder()
                        .withNewMetadata()
                        .withName(job.getMetadata().getName() + "-hook")
                        .withNamespace(release.namespace())
                        .withLabels(
                                template.getMetadata() == null
                                        ? Map.of()
                                        : template.getMetadata().getLabels())
                        .withAnnotations(
                                template.getMetadata() == null
                                        ? Map.of()
                                        : template.getMetadata().getAnnotations())
                        .endMetadata()
                        .withSpec(template.getSpec())
                        .build();
            } else if (hook instanceof Pod p) {
                pod = p;
            }
            if (pod == null) {
                api.client().resource(hook).inNamespace(release.namespace()).createOr(r -> r.update());
                events.event(
                        "helm", hook.getKind() + "/" + hook.getMetadata().getName(), event + " hook object applied");
                continue;
            }
            String name = hook.getKind() + "/" + hook.getMetadata().getName();
            Outcome o = runPod(name, pod, timeout);
            // A Job's failed pod is replaced up to backoffLimit times (6 when unset), after the Job
            // controller's back-off; a bare Pod runs once.
            int retries = hook instanceof Job job
                    ? Optional.ofNullable(job.getSpec().getBackoffLimit()).orElse(6)
                    : 0;
            for (int attempt = 1; o.exitCode() != 0 && attempt <= retries; attempt++) {
                Duration backoff = Duration.ofSeconds(10L << Math.min(attempt - 1, 5));
                events.event(
                        "job-controller",
                        name,
                        "pod failed (exit " + o.exitCode() + "); retry " + attempt + " of " + retries + " in "
                                + backoff.toSeconds() + " s (backoffLimit)");
                pause(backoff);
                o = runPod(name, pod, timeout);
            }
            outcomes.add(o);
            if (o.exitCode() != 0) {
                String last = o.logTail().lines().reduce((a, b) -> b).orElse("(no output)");
                throw new IllegalStateException(event + " hook " + o.hook() + " failed with exit status " + o.exitCode()
                        + ": " + last + "; its log ends:\n" + o.logTail());
            }
        }
        return outcomes;
    }

    private static void pause(Duration backoff) {
        try {
            io.weir.common.internal.Poll.until(() -> false, backoff, backoff);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while waiting to retry a hook", e);
        }
    }

    private List<HostAlias> hostAliases() {
        Map<String, List<String>> byAddress = new TreeMap<>();
        dns.get()
                .forEach((host, address) -> byAddress
                        .computeIfAbsent(address, a -> new ArrayList<>())
                        .add(host));
        return byAddress.entrySet().stream()
                .map(e -> new HostAliasBuilder()
                        .withIp(e.getKey())
                        .withHostnames(e.getValue())
                        .build())
                .toList();
    }

    private Outcome runPod(String hookName, Pod pod, Duration timeout) {
        long started = System.nanoTime();
        if (pod.getMetadata().getLabels() == null) {
            pod.getMetadata().setLabels(Map.of());
        }
        if (pod.getMetadata().getAnnotations() == null) {
            pod.getMetadata().setAnnotations(Map.of());
        }
        pod = new PodBuilder(pod)
                .editSpec()
                .addAllToHostAliases(hostAliases())
                .endSpec()
                .build();
        var ordinalPod = new StatefulSetPods.OrdinalPod(pod, 90, "hook", List.of());
        PlayManifest.Played played = PlayManifest.of(ordinalPod, cluster, v -> true);
        String name = pod.getMetadata().getName();
        Path manifest = workDir.resolve(name + ".yaml");
        try {
            Files.writeString(manifest, played.yaml());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        String container = name + "-" + pod.getSpec().getContainers().get(0).getName();
        podman.run(PODMAN, "pod", "rm", "-f", "-t", "0", name);
        events.event("helm", hookName, "hook pod " + name + " started (podman kube play)");
        try {
            podman.require(PODMAN, "kube", "play", manifest.toString());
            org.awaitility.Awaitility.await(hookName + " to finish")
                    .atMost(timeout)
                    .pollInterval(Duration.ofSeconds(1))
                    .until(() -> podman.run(PODMAN, "inspect", "--format", "{{.State.Status}}", container)
                            .output()
                            .trim()
                            .equals("exited"));
            int exit = Integer.parseInt(podman.require(PODMAN, "inspect", "--format", "{{.State.ExitCode}}", container)
                    .trim());
            String log = podman.run(PODMAN, "logs", container).output();
            if (exit != 0) {
                // The whole log, init containers' included, for the one reading the run afterwards.
                StringBuilder all = new StringBuilder();
                for (String c : podman.run(PODMAN, "ps", "-a", "--filter", "pod=" + name, "--format", "{{.Names}}")
                        .output()
                        .lines()
                        .toList()) {
                    all.append("== ")
                            .append(c)
                            .append(" ==\n")
                            .append(podman.run(PODMAN, "logs", c).output());
                }
                // Whether the pod could reach the host's services, and how loaded the machine was.
                all.append("== diagnosis ==\n").append(PodDiagnosis.of(podman, name));
                Path saved = workDir.resolve(name + ".log");
                try {
                    Files.writeString(saved, all);
                    events.event("helm", hookName, "the failed hook's logs are in " + saved);
                } catch (IOException e) {
                    events.event("helm", hookName, "could not keep the failed hook's logs: " + e);
                }
            }
            String tail = String.join(
                    "\n",
                    log.lines().skip(Math.max(0, log.lines().count() - 20)).toList());
            double seconds = (System.nanoTime() - started) / 1e9;
            events.event("helm", hookName, "hook pod exited " + exit + String.format(" after %.1f s", seconds));
            return new Outcome(hookName, exit, seconds, tail);
        } finally {
            podman.run(PODMAN, "kube", "down", manifest.toString());
            podman.run(PODMAN, "pod", "rm", "-f", "-t", "0", name);
        }
    }
}
