package io.weir.deploy.chart;

import static io.weir.deploy.chart.WeirChart.chart;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The ServiceMonitor keeps Weir's labels, and the Grafana dashboard reaches Grafana's sidecar as a
 * ConfigMap holding the very dashboard docker-compose.yml provisions.
 */
class MonitoringTest {

    static final String COMPOSE_DASHBOARD = "../../deploy/compose/grafana/dashboards/weir.json";
    static final String CHART_DASHBOARD = "files/dashboards/weir.json";

    @SuppressWarnings("unchecked")
    private static Map<String, Object> endpoint(GenericKubernetesResource monitor) {
        List<Map<String, Object>> endpoints = monitor.get("spec", "endpoints");
        assertThat(endpoints).hasSize(1);
        return endpoints.get(0);
    }

    @Test
    void serviceMonitorHonorsWeirsInstanceLabel() {
        Map<String, Object> endpoint =
                endpoint(chart().set("serviceMonitor.enabled", true).render().custom("ServiceMonitor"));

        // Weir's `instance` (the instance id) wins over the target's pod address.
        assertThat(endpoint).containsEntry("honorLabels", true).doesNotContainKeys("relabelings", "metricRelabelings");
        assertThat(endpoint(chart().set("serviceMonitor.enabled", true)
                        .set("serviceMonitor.honorLabels", false)
                        .render()
                        .custom("ServiceMonitor")))
                .containsEntry("honorLabels", false);
    }

    @Test
    void serviceMonitorScrapesOverHttpsVerifyingTheCertificateWithTheCa() {
        Map<String, Object> endpoint = endpoint(chart().set("serviceMonitor.enabled", true)
                .set("http.tls.keystore.secretName", "orders-http-tls")
                .render()
                .custom("ServiceMonitor"));

        assertThat(endpoint).containsEntry("scheme", "https").doesNotContainKey("bearerTokenSecret");
        assertThat(endpoint.get("tlsConfig"))
                .isEqualTo(Map.of(
                        "ca",
                        Map.of("secret", Map.of("name", "orders-http-tls", "key", "ca.crt")),
                        // Pod addresses are not in the certificate; one pod's stable name is, for every pod.
                        "serverName",
                        "orders-weir-0.orders-weir.streaming.svc"));

        Map<String, Object> separateCa = endpoint(chart().set("serviceMonitor.enabled", true)
                .set("http.tls.keystore.secretName", "orders-http-tls")
                .set("http.tls.ca.secretName", "orders-ca")
                .set("http.tls.ca.key", "tls.crt")
                .set("serviceMonitor.tlsServerName", "orders.example.com")
                .render()
                .custom("ServiceMonitor"));
        assertThat(separateCa.get("tlsConfig"))
                .isEqualTo(Map.of(
                        "ca",
                        Map.of("secret", Map.of("name", "orders-ca", "key", "tls.crt")),
                        "serverName",
                        "orders.example.com"));
        assertThat(endpoint(chart().set("serviceMonitor.enabled", true).render().custom("ServiceMonitor")))
                .doesNotContainKeys("scheme", "tlsConfig", "bearerTokenSecret");
    }

    @Test
    void serviceMonitorSendsTheTokenWhenMetricsWantOne() {
        WeirChart protectedMetrics = chart().set("serviceMonitor.enabled", true)
                .set("http.auth.existingSecret", "orders-http-token")
                .set("http.auth.tokenKey", "tokens");

        assertThat(endpoint(
                        protectedMetrics.set("http.auth.scope", "all").render().custom("ServiceMonitor")))
                .containsEntry("bearerTokenSecret", Map.of("name", "orders-http-token", "key", "tokens"));
        // scope admin: /metrics is open, and Prometheus gets no token it does not need.
        assertThat(endpoint(protectedMetrics
                        .set("http.auth.scope", "admin")
                        .render()
                        .custom("ServiceMonitor")))
                .doesNotContainKey("bearerTokenSecret");
    }

    @Test
    void serviceMonitorTakesRelabelings() {
        Map<String, Object> endpoint =
                endpoint(chart().values("monitoring.yaml").render().custom("ServiceMonitor"));

        assertThat(endpoint)
                .containsEntry(
                        "relabelings",
                        List.of(Map.of(
                                "sourceLabels", List.of("__meta_kubernetes_pod_node_name"), "targetLabel", "node")));
        assertThat(endpoint)
                .containsEntry(
                        "metricRelabelings",
                        List.of(Map.of(
                                "sourceLabels",
                                List.of("__name__"),
                                "regex",
                                "jvm_gc_pause_seconds_bucket",
                                "action",
                                "drop")));
        assertThatThrownBy(
                        () -> chart().set("serviceMonitor.relabelings", "drop").template())
                .hasMessageContaining("serviceMonitor.relabelings: Invalid type. Expected: array");
    }

    @Test
    void theChartsDashboardIsTheOneComposeProvisions() throws IOException {
        Path chart = WeirChart.directory();

        assertThat(Files.readString(chart.resolve(CHART_DASHBOARD)))
                .as(
                        "%s must be a copy of %s: copy it again after changing the dashboard",
                        CHART_DASHBOARD, COMPOSE_DASHBOARD)
                .isEqualTo(Files.readString(chart.resolve(COMPOSE_DASHBOARD).normalize()));
    }

    @Test
    void dashboardConfigMapCarriesTheSidecarsLabelAndTheDashboard() throws IOException {
        WeirChart.Manifests manifests = chart().values("monitoring.yaml").render();
        List<ConfigMap> configMaps = manifests.all(ConfigMap.class);
        ConfigMap dashboard = configMaps.stream()
                .filter(c -> c.getMetadata().getName().equals(WeirChart.FULLNAME + "-dashboard"))
                .findFirst()
                .orElseThrow(() -> new AssertionError("no dashboard ConfigMap in " + configMaps));

        assertThat(dashboard.getMetadata().getLabels()).containsEntry("grafana_dashboard", "1");
        assertThat(dashboard.getMetadata().getAnnotations()).containsEntry("grafana_folder", "Streaming");
        assertThat(dashboard.getMetadata().getNamespace()).isEqualTo("monitoring");
        assertThat(dashboard.getData()).containsOnlyKeys("weir.json");
        assertThat(dashboard.getData().get("weir.json"))
                .isEqualTo(Files.readString(
                                WeirChart.directory().resolve(COMPOSE_DASHBOARD).normalize())
                        .stripTrailing());
        // The dashboard is not part of the pods' configuration: changing it rolls no pod. (The third
        // ConfigMap is the helm test's script, created only by `helm test`; the fourth the
        // pre-rollback hook's properties, created only by `helm rollback` to this revision.)
        assertThat(configMaps)
                .extracting(c -> c.getMetadata().getName())
                .containsExactlyInAnyOrder(
                        WeirChart.FULLNAME,
                        WeirChart.FULLNAME + "-dashboard",
                        WeirChart.FULLNAME + "-test",
                        WeirChart.FULLNAME + "-upgrade");
    }

    @Test
    void dashboardLabelAndNamespaceFollowTheValues() {
        ConfigMap dashboard = chart()
                .set("grafanaDashboard.enabled", true)
                .set("grafanaDashboard.labels.grafana_dashboard", "null")
                .set("grafanaDashboard.labels.dashboards", "weir")
                .render()
                .all(ConfigMap.class)
                .stream()
                .filter(c -> c.getMetadata().getName().endsWith("-dashboard"))
                .findFirst()
                .orElseThrow();

        assertThat(dashboard.getMetadata().getLabels())
                .containsEntry("dashboards", "weir")
                .doesNotContainKey("grafana_dashboard");
        assertThat(dashboard.getMetadata().getNamespace()).isEqualTo(WeirChart.NAMESPACE);
        assertThat(chart().render().all(ConfigMap.class))
                .noneMatch(c -> c.getMetadata().getName().endsWith("-dashboard"));
    }

    @Test
    void badDashboardValuesFailTheSchema() {
        assertThatThrownBy(() -> chart().set("grafanaDashboard.labels.grafana_dashboard", 1)
                        .template())
                .hasMessageContaining(
                        "grafanaDashboard.labels.grafana_dashboard: Invalid type. Expected: string, given: integer");
        assertThatThrownBy(() ->
                        chart().set("grafanaDashboard.folder", "Streaming").template())
                .hasMessageContaining("grafanaDashboard: Additional property folder is not allowed");
    }
}
