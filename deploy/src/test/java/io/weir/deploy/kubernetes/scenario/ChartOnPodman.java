package io.weir.deploy.kubernetes.scenario;

import io.weir.deploy.kubernetes.cluster.Events;
import io.weir.deploy.kubernetes.cluster.Kubelet;
import io.weir.deploy.kubernetes.cluster.PodNetwork;
import io.weir.deploy.kubernetes.cluster.PodsCpuShare;
import io.weir.deploy.kubernetes.cluster.StatefulSetController;
import io.weir.deploy.kubernetes.helm.HookRunner;
import io.weir.deploy.kubernetes.helm.Release;
import io.weir.testkit.KafkaTestClient;
import io.weir.testkit.Podman;
import io.weir.testkit.kubernetes.KubernetesApiServer;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * One release of the chart run under Podman the way {@link PodmanScenario} runs word-count's, for a
 * test that deploys an image of its own (the starter's, in {@code image.StarterImageUpgradeIT}):
 * the test broker reachable from pods ({@link PodBroker}), the in-process API server with the TLS
 * names the pods call it by, the runner's StatefulSet controller and kubelets, Helm's hooks
 * ({@link HookRunner}) and {@code helm install}/{@code upgrade} ({@link HelmCommands}). The release's
 * name must contain {@code weir}, so that the chart's fullname is the release's name, which names
 * its pods and volumes; they are removed before the release starts and when it is closed
 * ({@link Leftovers}, and the hook pods' volumes). Not thread-safe.
 */
public final class ChartOnPodman implements AutoCloseable {

    private static final Duration HOOKS = Duration.ofMinutes(10);
    private static final Duration PODMAN = Duration.ofSeconds(60);

    private final Path root;
    private final String release;
    private final String namespace;
    private final Path work;
    private final Podman podman;
    private final Leftovers leftovers;
    private final PodBroker broker;
    private final KafkaTestClient kafka;
    private final KubernetesApiServer api;
    private final Events events = new Events(System.out);
    /** The pods' CPU weight, raised as the scenario's is: this runs inside a loaded build. */
    private final Optional<PodsCpuShare> cpuShare = PodsCpuShare.raise(events);

    private HelmCommands helm;
    private StatefulSetController controller;
    private StatefulSetView statefulSet;
    private HookRunner hooks;

    private ChartOnPodman(
            Path root,
            String release,
            String namespace,
            Path work,
            Podman podman,
            Leftovers leftovers,
            PodBroker broker,
            KafkaTestClient kafka,
            KubernetesApiServer api) {
        this.root = root;
        this.release = release;
        this.namespace = namespace;
        this.work = work;
        this.podman = podman;
        this.leftovers = leftovers;
        this.broker = broker;
        this.kafka = kafka;
        this.api = api;
    }

    /**
     * Starts the broker and the API server for {@code release} in {@code namespace}, after removing
     * what an earlier run of the release left in Podman; {@code work} takes the pods' manifests.
     */
    public static ChartOnPodman start(Path root, Path work, String release, String namespace) {
        if (!release.contains("weir")) {
            throw new IllegalArgumentException("release '" + release + "' must contain 'weir' (the chart's name),"
                    + " so that its pods are named <release>-<ordinal>");
        }
        Podman podman = Podman.withContainersConf(root.resolve("deploy/compose/podman/containers.conf"));
        Leftovers leftovers = new Leftovers(podman, release);
        leftovers.remove();
        removeHookVolumes(podman, release);
        PodBroker broker = PodBroker.start();
        KafkaTestClient kafka = null;
        KubernetesApiServer api = null;
        try {
            kafka = KafkaTestClient.connect(broker.bootstrapServers());
            api = KubernetesApiServer.start(KubernetesApiServer.Options.namespace(namespace)
                    .withAccessControl()
                    .withTlsName(PodNetwork.GATEWAY)
                    .withTlsName(PodNetwork.HOST_NAME));
            return new ChartOnPodman(root, release, namespace, work, podman, leftovers, broker, kafka, api);
        } catch (RuntimeException e) {
            if (kafka != null) {
                kafka.close();
            }
            broker.close();
            throw e;
        }
    }

    /** What the release's pods bootstrap from ({@code kafka.bootstrapServers}). */
    public String podBootstrapServers() {
        return broker.podBootstrapServers();
    }

    /**
     * {@code helm template} of the release from {@code valuesFile} and {@code --set} values
     * {@code sets}, with the test broker's pod listener as {@code kafka.bootstrapServers}.
     */
    public Release render(Path valuesFile, Map<String, Object> sets) {
        Map<String, Object> all = new LinkedHashMap<>(sets);
        all.put("kafka.bootstrapServers", broker.podBootstrapServers());
        return Release.render(root.resolve("helm/weir"), release, namespace, valuesFile, all);
    }

    /** A client of the test broker, for the test's topics, input and reads. */
    public KafkaTestClient kafka() {
        return kafka;
    }

    /**
     * {@code helm install}: the objects stored, then the StatefulSet's pods run by the runner's
     * controller until {@code replicas} are ready, each within {@code perPod}. Hooks run from then on.
     */
    public void install(Release rendered, int replicas, Duration perPod) {
        String image = rendered.statefulSet()
                .getSpec()
                .getTemplate()
                .getSpec()
                .getContainers()
                .get(0)
                .getImage();
        helm = new HelmCommands(root, release, namespace, image, broker.podBootstrapServers(), api, events, Map.of());
        helm.apply("install", rendered, true);
        String name = rendered.statefulSet().getMetadata().getName();
        controller = new StatefulSetController(api, namespace, name, podman, work, events);
        statefulSet = new StatefulSetView(api, namespace, name, controller);
        hooks = new HookRunner(api, podman, work, events, controller.cluster(), controller::dnsRecords);
        helm.runHooksWith(hooks);
        statefulSet.awaitRollout(replicas, perPod);
    }

    /** Runs the release's hooks of {@code event} ({@code pre-upgrade}, ...) as Helm does; fails naming one that failed. */
    public List<HookRunner.Outcome> runHooks(Release rendered, String event) {
        requireInstalled();
        return hooks.run(rendered, event, HOOKS);
    }

    /** {@code helm upgrade} after its pre-upgrade hooks ran ({@link #runHooks}): the objects, then post-upgrade hooks. */
    public void applyUpgrade(Release rendered) {
        requireInstalled();
        helm.apply("upgrade", rendered, false);
    }

    /** Waits until {@code replicas} pods run the StatefulSet's current revision and are ready, each within {@code perPod}. */
    public void awaitRollout(int replicas, Duration perPod) {
        requireInstalled();
        statefulSet.awaitRollout(replicas, perPod);
    }

    /** {@code spec.replicas} of the StatefulSet as the API server holds it. */
    public int replicas() {
        requireInstalled();
        return statefulSet.replicas();
    }

    /** The images of the pods that exist now. */
    public List<String> podImages() {
        requireInstalled();
        return controller.pods().values().stream()
                .map(Kubelet::pod)
                .map(p -> p.pod().getSpec().getContainers().get(0).getImage())
                .toList();
    }

    private void requireInstalled() {
        if (controller == null) {
            throw new IllegalStateException("release " + release + " is not installed: call install first");
        }
    }

    @Override
    public void close() {
        try {
            if (controller != null) {
                controller.close();
            }
        } finally {
            kafka.close();
            api.close();
            broker.close();
            leftovers.remove();
            removeHookVolumes(podman, release);
            cpuShare.ifPresent(PodsCpuShare::close);
        }
    }

    /**
     * The volumes {@code podman kube play} made for the hook pods' ConfigMaps and tokens
     * ({@code <release>-upgrade}, {@code <release>-upgrade-hook-kube-api-access}, ...), which
     * {@link Leftovers} does not name.
     */
    private static void removeHookVolumes(Podman podman, String release) {
        Pattern hookVolume = Pattern.compile(Pattern.quote(release) + "-[a-z][a-z0-9-]*");
        podman.run(PODMAN, "volume", "ls", "--format", "{{.Name}}")
                .output()
                .lines()
                .filter(v -> hookVolume.matcher(v).matches())
                .forEach(v -> podman.run(PODMAN, "volume", "rm", "-f", v));
    }
}
