package io.weir.deploy.kubernetes.helm;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.apps.StatefulSet;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import io.weir.deploy.helm.HelmTemplate;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A rendering of the chart in {@code helm/weir} for one release ({@code helm template} through
 * helm-java, Helm's own engine, hooks included: {@link HelmTemplate}), split as Helm splits it: the release's objects, which
 * {@code helm install}/{@code upgrade} apply, and its hooks (annotation {@code helm.sh/hook}),
 * which Helm runs at their events ({@code pre-upgrade}, {@code test}, ...).
 */
public record Release(String name, String namespace, List<HasMetadata> objects, List<HasMetadata> hooks) {

    public static final String HOOK = "helm.sh/hook";
    private static final KubernetesSerialization YAML = new KubernetesSerialization();

    /** Renders {@code chart} with the values file and {@code --set} values given. */
    public static Release render(Path chart, String name, String namespace, Path valuesFile, Map<String, Object> sets) {
        String rendered = HelmTemplate.render(chart, name, namespace, List.of(valuesFile), sets);
        List<HasMetadata> objects = new ArrayList<>();
        List<HasMetadata> hooks = new ArrayList<>();
        for (String doc : rendered.split("(?m)^---\\s*$")) {
            if (doc.lines().allMatch(l -> l.isBlank() || l.stripLeading().startsWith("#"))) {
                continue;
            }
            HasMetadata resource = YAML.unmarshal(doc);
            if (resource.getMetadata().getNamespace() == null && namespaced(resource.getKind())) {
                resource.getMetadata().setNamespace(namespace);
            }
            Map<String, String> annotations = resource.getMetadata().getAnnotations();
            (annotations != null && annotations.containsKey(HOOK) ? hooks : objects).add(resource);
        }
        return new Release(name, namespace, List.copyOf(objects), List.copyOf(hooks));
    }

    /** The chart directory above the working directory (the repository's {@code helm/weir}). */
    public static Path chartDirectory() {
        Path dir = Path.of("").toAbsolutePath();
        while (dir != null && !Files.isRegularFile(dir.resolve("helm/weir/Chart.yaml"))) {
            dir = dir.getParent();
        }
        if (dir == null) {
            throw new IllegalStateException(
                    "helm/weir/Chart.yaml not found above " + Path.of("").toAbsolutePath());
        }
        return dir.resolve("helm/weir");
    }

    public StatefulSet statefulSet() {
        List<StatefulSet> found = objects.stream()
                .filter(StatefulSet.class::isInstance)
                .map(StatefulSet.class::cast)
                .toList();
        if (found.size() != 1) {
            throw new IllegalStateException("the release renders " + found.size() + " StatefulSets, expected 1");
        }
        return found.get(0);
    }

    /** Hooks run at {@code event} ({@code pre-upgrade}, {@code test}, ...), by their hook weight then name, as Helm orders them. */
    public List<HasMetadata> hooks(String event) {
        return hooks.stream()
                .filter(h -> Arrays.stream(
                                h.getMetadata().getAnnotations().get(HOOK).split(","))
                        .map(String::trim)
                        .anyMatch(event::equals))
                .sorted(java.util.Comparator.comparingInt((HasMetadata h) -> Integer.parseInt(h.getMetadata()
                                .getAnnotations()
                                .getOrDefault("helm.sh/hook-weight", "0")
                                .trim()))
                        .thenComparing(h -> h.getMetadata().getName()))
                .toList();
    }

    /** Kinds in this rendering, for the scenario's output. */
    public Map<String, Integer> kindCounts() {
        Map<String, Integer> counts = new LinkedHashMap<>();
        objects.forEach(o -> counts.merge(o.getKind(), 1, Integer::sum));
        hooks.forEach(o -> counts.merge(o.getKind() + " (hook)", 1, Integer::sum));
        return counts;
    }

    private static boolean namespaced(String kind) {
        return !List.of("ClusterRole", "ClusterRoleBinding", "Namespace", "PriorityClass", "StorageClass")
                .contains(kind);
    }
}
