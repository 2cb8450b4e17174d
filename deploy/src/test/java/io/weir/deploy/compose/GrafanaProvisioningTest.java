package io.weir.deploy.compose;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * Grafana finds its Prometheus and the Weir dashboard through the provisioning files and the
 * mounts of docker-compose.yml, and the dashboard is well formed and covers what
 * docs/deploying.md promises. DashboardMetricsIT checks its queries against a running Weir instance.
 */
class GrafanaProvisioningTest {

    static final String DASHBOARD = "deploy/compose/grafana/dashboards/weir.json";
    static final String DATASOURCES = "deploy/compose/grafana/provisioning/datasources/prometheus.yml";
    static final String DASHBOARD_PROVIDERS = "deploy/compose/grafana/provisioning/dashboards/weir.yml";

    private final ComposeFile compose = ComposeFile.load();
    private final JsonNode dashboard = RepositoryFiles.json(DASHBOARD);

    @Test
    void dashboardHasIdentityAndPanelsWithQueries() {
        assertThat(dashboard.path("uid").asText()).isNotBlank();
        assertThat(dashboard.path("title").asText()).isNotBlank();
        assertThat(panels()).isNotEmpty();
        Set<Integer> ids = new HashSet<>();
        for (JsonNode panel : dashboard.path("panels")) {
            assertThat(ids.add(panel.path("id").asInt()))
                    .as("panel id " + panel.path("id") + " unique")
                    .isTrue();
            assertThat(panel.path("gridPos").path("w").asInt())
                    .as(panel.path("title").asText())
                    .isPositive();
        }
        for (JsonNode panel : panels()) {
            assertThat(panel.path("targets"))
                    .as(panel.path("title") + " queries")
                    .isNotEmpty();
            panel.path("targets")
                    .forEach(t -> assertThat(t.path("expr").asText())
                            .as(panel.path("title").asText())
                            .isNotBlank());
        }
    }

    @Test
    void queriesTheDataSourceChosenInItsVariableTheProvisionedPrometheusByDefault() {
        JsonNode datasource =
                RepositoryFiles.yaml(DATASOURCES).path("datasources").path(0);
        assertThat(datasource.path("type").asText()).isEqualTo("prometheus");
        assertThat(datasource.path("url").asText()).isEqualTo("http://prometheus:9090");
        // The variable's "default" is Grafana's default data source: in docker-compose.yml, this one.
        assertThat(datasource.path("isDefault").asBoolean()).isTrue();
        assertThat(compose.services()).containsKey("prometheus");
        JsonNode variable = variable("datasource");
        assertThat(variable.path("type").asText()).isEqualTo("datasource");
        assertThat(variable.path("query").asText()).isEqualTo("prometheus");
        assertThat(variable.path("current").path("value").asText()).isEqualTo("default");

        String chosen = "${datasource}";
        for (JsonNode panel : panels()) {
            assertThat(panel.path("datasource").path("uid").asText())
                    .as(panel.path("title").asText())
                    .isEqualTo(chosen);
            panel.path("targets")
                    .forEach(t -> assertThat(t.path("datasource").path("uid").asText())
                            .as(panel.path("title").asText())
                            .isEqualTo(chosen));
        }
        dashboard.path("templating").path("list").forEach(v -> {
            if (!v.path("type").asText().equals("datasource")) {
                assertThat(v.path("datasource").path("uid").asText())
                        .as("variable " + v.path("name"))
                        .isEqualTo(chosen);
            }
        });
    }

    @Test
    void everyQueryKeepsToTheChosenNamespace() {
        // Series without the label (docker-compose.yml's) still match: the "All" value is ".*".
        assertThat(variable("namespace").path("allValue").asText()).isEqualTo(".*");
        for (String expr : DashboardQueries.of(dashboard).exprs()) {
            assertThat(expr).as(expr).contains("namespace=~\"$namespace\"");
            assertThat(expr).as(expr).containsAnyOf("application=~\"$application\"", "job=~\"$job\"");
        }
    }

    private JsonNode variable(String name) {
        for (JsonNode v : dashboard.path("templating").path("list")) {
            if (v.path("name").asText().equals(name)) {
                return v;
            }
        }
        throw new AssertionError("no variable " + name + " in the dashboard");
    }

    @Test
    void showsThroughputLagCommitsRestoresDeadLettersAndReadiness() {
        assertThat(DashboardQueries.of(dashboard).metricNames())
                .contains(
                        "weir_records_in_total",
                        "weir_records_out_total",
                        "weir_consumer_lag_records",
                        "weir_commit_latency_seconds_sum",
                        "weir_commit_latency_seconds_count",
                        "weir_commit_latency_seconds_max",
                        "weir_restore_remaining_records",
                        "weir_restore_records_total",
                        "weir_records_dead_lettered_total",
                        "weir_instance_ready",
                        "weir_instance_state",
                        "weir_instance_stalled",
                        "weir_time_since_last_commit_seconds");
    }

    /**
     * The Kafka clients' own series (on /metrics with metrics.kafka.clients.enabled, the default):
     * consumer lag and fetch latency per stream thread, produce latency, transaction times, errors.
     * DashboardMetricsIT checks that a running instance exports them with the labels grouped by.
     */
    @Test
    void showsTheKafkaClientsLagLatencyTransactionsAndErrors() {
        assertThat(DashboardQueries.of(dashboard).metricNames())
                .contains(
                        "kafka_consumer_fetch_manager_records_lag_max",
                        "kafka_consumer_fetch_manager_fetch_latency_avg",
                        "kafka_producer_request_latency_avg",
                        "kafka_producer_txn_init_time_ns_total",
                        "kafka_producer_txn_begin_time_ns_total",
                        "kafka_producer_txn_commit_time_ns_total",
                        "kafka_producer_txn_abort_time_ns_total",
                        "kafka_producer_record_error_total");
    }

    @Test
    void provisioningPointsAtTheDashboardFile() {
        Map<String, String> mounts = ComposeFile.bindMounts(compose.service("grafana"));
        JsonNode provider =
                RepositoryFiles.yaml(DASHBOARD_PROVIDERS).path("providers").path(0);
        assertThat(provider.path("type").asText()).isEqualTo("file");
        Path dashboards = hostPath(mounts, provider.path("options").path("path").asText());
        assertThat(dashboards.resolve("weir.json")).isEqualTo(RepositoryFiles.file(DASHBOARD));

        // The provisioning directory itself is mounted where Grafana looks for it.
        Path provisioning = hostPath(mounts, "/etc/grafana/provisioning");
        assertThat(provisioning.resolve("datasources/prometheus.yml")).isEqualTo(RepositoryFiles.file(DATASOURCES));
        assertThat(provisioning.resolve("dashboards/weir.yml")).isEqualTo(RepositoryFiles.file(DASHBOARD_PROVIDERS));

        String home =
                ComposeFile.environment(compose.service("grafana")).get("GF_DASHBOARDS_DEFAULT_HOME_DASHBOARD_PATH");
        assertThat(hostPath(mounts, home)).isEqualTo(RepositoryFiles.file(DASHBOARD));
    }

    @Test
    void letsAnonymousVisitorsOnlyView() {
        Map<String, String> env = ComposeFile.environment(compose.service("grafana"));
        assertThat(env)
                .containsEntry("GF_AUTH_ANONYMOUS_ENABLED", "true")
                .containsEntry("GF_AUTH_ANONYMOUS_ORG_ROLE", "Viewer");
    }

    /** The host file behind a container path, through the service's bind mounts. */
    private static Path hostPath(Map<String, String> mounts, String containerPath) {
        for (Map.Entry<String, String> m : mounts.entrySet()) {
            if (containerPath.equals(m.getValue()) || containerPath.startsWith(m.getValue() + "/")) {
                return RepositoryFiles.root()
                        .resolve(m.getKey())
                        .resolve(containerPath.substring(m.getValue().length()).replaceFirst("^/", ""))
                        .normalize();
            }
        }
        throw new AssertionError(containerPath + " is not mounted from the repository: " + mounts);
    }

    private List<JsonNode> panels() {
        List<JsonNode> panels = new ArrayList<>();
        dashboard.path("panels").forEach(p -> {
            if (!p.path("type").asText().equals("row")) {
                panels.add(p);
            }
        });
        return panels;
    }
}
