package io.weir.deploy.kubernetes.scenario;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.weir.deploy.kubernetes.cluster.Events;
import io.weir.deploy.kubernetes.helm.HookRunner;
import io.weir.deploy.kubernetes.helm.Release;
import io.weir.testkit.kubernetes.KubernetesApiServer;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What {@code helm install}, {@code helm upgrade} and {@code --set} do for the scenario's release:
 * the chart rendered with the scenario's values, image and broker; the pre- hooks, the objects
 * created or replaced in the API server, the post- hooks. Hooks run once the cluster can run pods
 * ({@link #runHooksWith}); before that (the install) there are none to run.
 */
final class HelmCommands {

    private static final Duration HOOKS = Duration.ofMinutes(10);
    private static final io.fabric8.kubernetes.client.utils.KubernetesSerialization SERIALIZATION =
            new io.fabric8.kubernetes.client.utils.KubernetesSerialization();

    private final Path root;
    private final String release;
    private final String namespace;
    private final String image;
    private final String podBootstrapServers;
    private final KubernetesApiServer api;
    private final Events events;
    private final Map<String, Object> variant;
    /** What each object was last applied as (kind/name), for the annotations Helm's merge keeps. */
    private final Map<String, HasMetadata> applied = new java.util.HashMap<>();

    private HookRunner hooks;

    HelmCommands(
            Path root,
            String release,
            String namespace,
            String image,
            String podBootstrapServers,
            KubernetesApiServer api,
            Events events,
            Map<String, Object> variant) {
        this.root = root;
        this.release = release;
        this.namespace = namespace;
        this.image = image;
        this.podBootstrapServers = podBootstrapServers;
        this.api = api;
        this.events = events;
        this.variant = Map.copyOf(variant);
    }

    void runHooksWith(HookRunner hooks) {
        this.hooks = hooks;
    }

    /**
     * {@code helm template} of the release with image tag {@code tag}, the variant's values and
     * {@code extra} {@code --set} values.
     */
    Release render(String tag, Map<String, Object> extra) {
        Map<String, Object> sets = new LinkedHashMap<>();
        sets.put("image.repository", image);
        sets.put("image.tag", tag);
        sets.put("kafka.bootstrapServers", podBootstrapServers);
        sets.putAll(variant);
        sets.putAll(extra);
        return Release.render(
                root.resolve("helm/weir"),
                release,
                namespace,
                root.resolve("deploy/kubernetes/scenario-values.yaml"),
                sets);
    }

    /**
     * The release of the savepoint upgrade: word-count's v2 ({@code serve word-count --variant v2}),
     * whose count store is renamed (a change of state), with {@code upgrade.mode=savepoint} and
     * {@code upgrade.mapStores} carrying the counts over ({@code store} to {@code renamed}).
     */
    Release savepointRelease(int replicas, String store, String renamed) {
        return savepointRelease(replicas, List.of("serve", "word-count", "--variant", "v2"), store, renamed, Map.of());
    }

    /**
     * A release in {@code upgrade.mode=savepoint} running {@code args}, carrying store {@code store}
     * over as {@code renamed}, with {@code extra} {@code --set} values.
     */
    Release savepointRelease(int replicas, List<String> args, String store, String renamed, Map<String, Object> extra) {
        Map<String, Object> sets = new LinkedHashMap<>();
        sets.put("replicaCount", replicas);
        putList(sets, "args", args);
        sets.put("upgrade.mode", "savepoint");
        sets.put("upgrade.mapStores." + store, renamed);
        sets.putAll(extra);
        return render("v2", sets);
    }

    /** {@code --set name[i]=...} for each element: helm-java's set takes no list literal. */
    static void putList(Map<String, Object> sets, String name, List<?> values) {
        for (int i = 0; i < values.size(); i++) {
            sets.put(name + "[" + i + "]", values.get(i));
        }
    }

    /**
     * helm install/upgrade/rollback: pre- hooks (unless {@code preHooks} is false: the caller ran
     * them), objects, post- hooks. A ServiceMonitor is not stored: the runner has no Prometheus
     * Operator and plays Prometheus itself from the rendering ({@link ServiceMonitorScrape}).
     */
    void apply(String action, Release rendered, boolean preHooks) {
        if (hooks != null && preHooks) {
            hooks.run(rendered, "pre-" + action, HOOKS);
        }
        for (HasMetadata o : rendered.objects()) {
            if (!o.getKind().equals("ServiceMonitor")) {
                HasMetadata merged = keepingOthersAnnotations(o);
                api.client().resource(merged).inNamespace(namespace).createOr(r -> r.update());
                applied.put(o.getKind() + "/" + o.getMetadata().getName(), o);
            }
        }
        events.event(
                "helm",
                release,
                action + ": " + rendered.objects().size() + " objects applied " + rendered.kindCounts());
        if (hooks != null) {
            hooks.run(rendered, "post-" + action, HOOKS);
        }
    }

    /**
     * {@code o} with the live object's annotations that neither this rendering nor the one applied
     * before set: Helm's three-way merge leaves what others wrote in place (the savepoint upgrade's
     * mark on the StatefulSet, {@code weir.io/savepoint-upgrade}, which its rollback hook reads),
     * where a plain replace would drop it.
     */
    private HasMetadata keepingOthersAnnotations(HasMetadata o) {
        HasMetadata live = api.client().resource(o).inNamespace(namespace).get();
        if (live == null || live.getMetadata().getAnnotations() == null) {
            return o;
        }
        HasMetadata before = applied.get(o.getKind() + "/" + o.getMetadata().getName());
        Map<String, String> previous = before == null || before.getMetadata().getAnnotations() == null
                ? Map.of()
                : before.getMetadata().getAnnotations();
        Map<String, String> annotations = new LinkedHashMap<>();
        live.getMetadata().getAnnotations().forEach((k, v) -> {
            if (!previous.containsKey(k)) {
                annotations.put(k, v);
            }
        });
        if (o.getMetadata().getAnnotations() != null) {
            annotations.putAll(o.getMetadata().getAnnotations());
        }
        HasMetadata copy = SERIALIZATION.clone(o);
        copy.getMetadata().setAnnotations(annotations);
        return copy;
    }

    /**
     * helm uninstall: the release's objects deleted (the StatefulSet's pods go with it; the claims
     * stay, as the StatefulSet's retention keeps them), then the post-delete hooks of {@code
     * rendered}, the last revision's.
     */
    List<HookRunner.Outcome> uninstall(Release rendered) {
        for (HasMetadata o : rendered.objects()) {
            if (!o.getKind().equals("ServiceMonitor")) {
                api.client().resource(o).inNamespace(namespace).delete();
            }
        }
        events.event("helm", release, "uninstall: " + rendered.objects().size() + " objects deleted");
        return hooks.run(rendered, "post-delete", HOOKS);
    }
}
