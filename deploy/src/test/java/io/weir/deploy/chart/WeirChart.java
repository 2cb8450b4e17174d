package io.weir.deploy.chart;

import com.marcnuri.helm.Helm;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.weir.deploy.helm.HelmTemplate;
import io.weir.deploy.kubernetes.helm.Release;
import java.net.URISyntaxException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The chart in {@code helm/weir}, rendered with Helm's own engine (helm-java, no cluster needed).
 * Build a rendering with values files from {@code src/test/resources/chart} and {@code --set}
 * values, as an operator would: {@code chart().values("keda.yaml").set("keda.maxReplicas", 4)}.
 */
final class WeirChart {

    static final String RELEASE = "orders";
    /** The StatefulSet's name, hence the prefix of every pod name and instance.id. */
    static final String FULLNAME = "orders-weir";

    static final String NAMESPACE = "streaming";

    private final List<Path> valuesFiles = new ArrayList<>();
    private final Map<String, Object> sets = new LinkedHashMap<>();
    private String release = RELEASE;

    private WeirChart() {}

    /** The chart with only what the operator must give (image, application id, bootstrap servers). */
    static WeirChart chart() {
        return bare().values("required.yaml");
    }

    /** The chart with its own values.yaml alone. */
    static WeirChart bare() {
        return new WeirChart();
    }

    static Path directory() {
        return Release.chartDirectory();
    }

    static Helm helm() {
        return new Helm(directory());
    }

    WeirChart values(String fileInTestResources) {
        try {
            var url = WeirChart.class.getResource("/chart/" + fileInTestResources);
            if (url == null) {
                throw new IllegalArgumentException("no values file chart/" + fileInTestResources);
            }
            valuesFiles.add(Path.of(url.toURI()));
        } catch (URISyntaxException e) {
            throw new IllegalStateException(e);
        }
        return this;
    }

    /** A values file anywhere (a page's, as a reader passes it with {@code -f}). */
    WeirChart values(Path file) {
        valuesFiles.add(file);
        return this;
    }

    /** Another release name than {@value #RELEASE} (the StatefulSet is then named after it). */
    WeirChart release(String name) {
        release = name;
        return this;
    }

    /** A {@code --set} value; dots in a key that is itself a setting name need escaping ({@code config.a\.b}). */
    WeirChart set(String key, Object value) {
        sets.put(key, value);
        return this;
    }

    /**
     * {@code helm template}: the rendered YAML, hooks included as the helm command prints them, or an
     * IllegalStateException with Helm's message.
     */
    String template() {
        return HelmTemplate.render(directory(), release, NAMESPACE, valuesFiles, sets);
    }

    /** Renders and parses every manifest strictly into the Kubernetes model. */
    Manifests render() {
        return new Manifests(StrictManifests.parse(template()));
    }

    record Manifests(List<HasMetadata> resources) {
        /** What {@code helm install} applies: every resource but the hooks (annotation {@code helm.sh/hook}). */
        Manifests release() {
            return new Manifests(resources.stream()
                    .filter(r -> r.getMetadata().getAnnotations() == null
                            || !r.getMetadata().getAnnotations().containsKey("helm.sh/hook"))
                    .toList());
        }

        <T extends HasMetadata> T only(Class<T> type) {
            List<T> found = all(type);
            if (found.size() != 1) {
                throw new AssertionError("expected one " + type.getSimpleName() + ", found " + found.size());
            }
            return found.get(0);
        }

        /** The resource of this type and name (the chart renders several ConfigMaps). */
        <T extends HasMetadata> T named(Class<T> type, String name) {
            return all(type).stream()
                    .filter(r -> name.equals(r.getMetadata().getName()))
                    .findFirst()
                    .orElseThrow(() -> new AssertionError(
                            "no " + type.getSimpleName() + " named " + name + "; kinds: " + kinds()));
        }

        <T extends HasMetadata> List<T> all(Class<T> type) {
            return resources.stream().filter(type::isInstance).map(type::cast).toList();
        }

        List<String> kinds() {
            return resources.stream().map(HasMetadata::getKind).toList();
        }

        /** A resource of a custom kind (read as a generic resource). */
        io.fabric8.kubernetes.api.model.GenericKubernetesResource custom(String kind) {
            return resources.stream()
                    .filter(r -> r instanceof io.fabric8.kubernetes.api.model.GenericKubernetesResource
                            && kind.equals(r.getKind()))
                    .map(io.fabric8.kubernetes.api.model.GenericKubernetesResource.class::cast)
                    .findFirst()
                    .orElseThrow(() -> new AssertionError("no " + kind + " rendered; kinds: " + kinds()));
        }
    }
}
