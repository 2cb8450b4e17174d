package io.weir.deploy.compose;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Prometheus scrapes exactly the replicas docker-compose.yml runs, where they listen. */
class PrometheusConfigTest {

    static final String PATH = "deploy/compose/prometheus/prometheus.yml";

    private final ComposeFile compose = ComposeFile.load();
    private final JsonNode config = RepositoryFiles.yaml(PATH);

    @Test
    void scrapesEveryReplicaOnItsContainerHttpPort() {
        List<String> targets = new ArrayList<>();
        for (JsonNode job : config.path("scrape_configs")) {
            assertThat(job.path("metrics_path").asText("/metrics")).isEqualTo("/metrics");
            job.path("static_configs").forEach(sc -> sc.path("targets").forEach(t -> targets.add(t.asText())));
        }
        List<String> expected = compose.replicas().stream()
                .map(replica -> replica + ":"
                        + ComposeFile.environment(compose.service(replica)).getOrDefault("WEIR_HTTP_PORT", "8080"))
                .toList();
        assertThat(targets).containsExactlyInAnyOrderElementsOf(expected);
    }

    @Test
    void keepsWeirsInstanceLabel() {
        // Weir labels every series with its instance id; without honor_labels Prometheus would
        // rename it exported_instance and the dashboard's "by (instance)" would group by target.
        assertThat(config.path("scrape_configs").path(0).path("honor_labels").asBoolean())
                .isTrue();
    }

    @Test
    void isMountedWherePrometheusReadsItsConfiguration() {
        Map<String, String> mounts = ComposeFile.bindMounts(compose.service("prometheus"));
        assertThat(mounts).containsEntry("./" + PATH, "/etc/prometheus/prometheus.yml");
    }
}
