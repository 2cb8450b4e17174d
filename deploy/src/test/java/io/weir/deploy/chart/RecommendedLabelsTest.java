package io.weir.deploy.chart;

import static io.weir.deploy.chart.WeirChart.chart;
import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.apps.StatefulSet;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Kubernetes' recommended labels (app.kubernetes.io/*, helm.sh/chart) on everything the chart renders. */
class RecommendedLabelsTest {

    private static void assertRecommendedLabels(String what, Map<String, String> labels) {
        assertThat(labels)
                .as(what)
                .containsEntry("app.kubernetes.io/name", "weir")
                .containsEntry("app.kubernetes.io/instance", WeirChart.RELEASE)
                .containsEntry("app.kubernetes.io/managed-by", "Helm")
                .containsEntry("app.kubernetes.io/component", "stream-processor")
                .containsEntry("app.kubernetes.io/version", "0.1.0-SNAPSHOT")
                .hasEntrySatisfying(
                        "helm.sh/chart", chart -> assertThat(chart).matches("weir-[0-9]+\\.[0-9]+\\.[0-9]+.*"));
    }

    @Test
    void everyResourceAndThePodsCarryThem() {
        WeirChart.Manifests manifests =
                chart().values("monitoring.yaml").values("keda.yaml").render();

        assertThat(manifests.kinds())
                .contains(
                        "StatefulSet",
                        "Service",
                        "ConfigMap",
                        "ServiceAccount",
                        "PodDisruptionBudget",
                        "NetworkPolicy",
                        "ServiceMonitor",
                        "PrometheusRule",
                        "ScaledObject");
        for (HasMetadata resource : manifests.resources()) {
            if (resource instanceof io.fabric8.kubernetes.api.model.Pod) {
                // The helm test pod: without app.kubernetes.io/name, or the Service and the
                // PodDisruptionBudget (which select name and instance) would count it (ReleaseTestHookTest).
                continue;
            }
            assertRecommendedLabels(
                    resource.getKind() + " " + resource.getMetadata().getName(),
                    resource.getMetadata().getLabels());
        }
        StatefulSet statefulSet = manifests.only(StatefulSet.class);
        assertRecommendedLabels(
                "the pods", statefulSet.getSpec().getTemplate().getMetadata().getLabels());
        // The selector stays the immutable pair, and the claim template keeps only it: a StatefulSet's
        // volumeClaimTemplates cannot change on upgrade, and version labels change with every one.
        assertThat(statefulSet.getSpec().getSelector().getMatchLabels())
                .containsOnlyKeys("app.kubernetes.io/name", "app.kubernetes.io/instance");
        assertThat(statefulSet
                        .getSpec()
                        .getVolumeClaimTemplates()
                        .get(0)
                        .getMetadata()
                        .getLabels())
                .isEqualTo(statefulSet.getSpec().getSelector().getMatchLabels());
    }

    @Test
    void podLabelsAddToThem() {
        StatefulSet statefulSet =
                chart().set("podLabels.team", "payments").render().only(StatefulSet.class);

        Map<String, String> labels =
                statefulSet.getSpec().getTemplate().getMetadata().getLabels();
        assertRecommendedLabels("the pods", labels);
        assertThat(labels).containsEntry("team", "payments");
    }
}
