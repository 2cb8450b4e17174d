package io.weir.deploy.chart;

import static io.weir.deploy.chart.WeirChart.chart;
import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.Service;
import io.fabric8.kubernetes.api.model.apps.StatefulSet;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** ServiceMonitor and KEDA's ScaledObject: custom kinds, so their fields are checked here. */
class OptionalResourcesTest {

    @Test
    void offByDefault() {
        assertThat(chart().render().kinds()).doesNotContain("ServiceMonitor", "PrometheusRule", "ScaledObject");
    }

    @Test
    void serviceMonitorScrapesMetricsOnTheHttpPortOfTheService() {
        WeirChart.Manifests manifests = chart().values("servicemonitor.yaml").render();
        GenericKubernetesResource monitor = manifests.custom("ServiceMonitor");

        assertThat(monitor.getApiVersion()).isEqualTo("monitoring.coreos.com/v1");
        assertThat(monitor.getMetadata().getLabels()).containsEntry("release", "prometheus");
        Map<String, Object> spec = monitor.get("spec");
        assertThat(spec.keySet()).containsExactlyInAnyOrder("selector", "endpoints");
        assertThat(spec)
                .extractingByKey("selector")
                .isEqualTo(Map.of(
                        "matchLabels",
                        manifests.only(Service.class).getMetadata().getLabels().entrySet().stream()
                                .filter(e -> e.getKey().equals("app.kubernetes.io/name")
                                        || e.getKey().equals("app.kubernetes.io/instance"))
                                .collect(java.util.stream.Collectors.toMap(Map.Entry::getKey, Map.Entry::getValue))));
        assertThat(spec)
                .extractingByKey("endpoints")
                .isEqualTo(List.of(Map.of("port", "http", "path", "/metrics", "interval", "15s", "honorLabels", true)));
    }

    @Test
    void kedaScalesTheStatefulSetOnTheGroupsLagUpToThePartitionCount() {
        WeirChart.Manifests manifests = chart().values("keda.yaml").render();
        GenericKubernetesResource scaledObject = manifests.custom("ScaledObject");
        StatefulSet statefulSet = manifests.only(StatefulSet.class);

        assertThat(scaledObject.getApiVersion()).isEqualTo("keda.sh/v1alpha1");
        Map<String, Object> spec = scaledObject.get("spec");
        assertThat(spec.keySet())
                .containsExactlyInAnyOrder(
                        "scaleTargetRef",
                        "minReplicaCount",
                        "maxReplicaCount",
                        "pollingInterval",
                        "cooldownPeriod",
                        "advanced",
                        "triggers");
        assertThat(spec)
                .extractingByKey("scaleTargetRef")
                .isEqualTo(Map.of(
                        "apiVersion",
                        "apps/v1",
                        "kind",
                        "StatefulSet",
                        "name",
                        statefulSet.getMetadata().getName()));
        assertThat((Integer) spec.get("maxReplicaCount"))
                .isEqualTo(12)
                .isLessThanOrEqualTo(12 /* keda.inputPartitions */);
        assertThat((Integer) spec.get("minReplicaCount")).isEqualTo(2);
        // Without a live StatefulSet (helm template, a first install) the count starts at minReplicas;
        // leaving replicas out made Helm's three-way merge drop it, and Kubernetes then set 1.
        assertThat(statefulSet.getSpec().getReplicas()).isEqualTo(2);

        List<Map<String, Object>> triggers = scaledObject.get("spec", "triggers");
        assertThat(triggers).hasSize(2).allSatisfy(trigger -> {
            assertThat(trigger).containsEntry("type", "kafka");
            assertThat(trigger).containsEntry("authenticationRef", Map.of("name", "kafka-sasl"));
            @SuppressWarnings("unchecked")
            Map<String, Object> metadata = (Map<String, Object>) trigger.get("metadata");
            assertThat(metadata)
                    .containsEntry("consumerGroup", "orders") // = application.id
                    .containsEntry("bootstrapServers", "kafka-0.kafka:9092,kafka-1.kafka:9092")
                    .containsEntry("lagThreshold", "1000")
                    .containsEntry("offsetResetPolicy", "earliest")
                    .containsEntry("allowIdleConsumers", "false");
        });
        assertThat(triggers)
                .extracting(t -> (Object) ((Map<?, ?>) t.get("metadata")).get("topic"))
                .containsExactly("orders", "payments");
    }

    @Test
    void kedaWithoutTopicsMeasuresEveryTopicOfTheGroup() {
        GenericKubernetesResource scaledObject =
                chart().values("keda.yaml").set("keda.topics", "null").render().custom("ScaledObject");

        List<Map<String, Object>> triggers = scaledObject.get("spec", "triggers");
        assertThat(triggers)
                .singleElement()
                .satisfies(t -> assertThat(((Map<?, ?>) t.get("metadata")).containsKey("topic"))
                        .isFalse());
    }
}
