package io.weir.deploy.compose;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Files;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * docker-compose.yml keeps what docs/deploying.md promises: a valid Compose file, two replicas of a
 * stateful sample that each keep their own identity and state, stops that leave time for a
 * graceful close, and start-up ordering that refers to real services. What only a Docker engine
 * could show (pulling apache/kafka, Prometheus and Grafana) is checked here by reading the file;
 * ComposeAppServicesIT runs the application services in containers.
 */
class ComposeFileTest {

    private final ComposeFile compose = ComposeFile.load();

    @Test
    void usesOnlyComposeSpecificationKeys() {
        List<String> unknown = new ArrayList<>();
        compose.root().fieldNames().forEachRemaining(key -> {
            if (!ComposeSpec.TOP_LEVEL.contains(key) && !ComposeSpec.extension(key)) {
                unknown.add(key);
            }
        });
        compose.services().forEach((name, service) -> {
            service.fieldNames().forEachRemaining(key -> {
                if (!ComposeSpec.SERVICE.contains(key) && !ComposeSpec.extension(key)) {
                    unknown.add(name + "." + key);
                }
            });
            service.path("build").fieldNames().forEachRemaining(key -> {
                if (!ComposeSpec.BUILD.contains(key)) {
                    unknown.add(name + ".build." + key);
                }
            });
            service.path("healthcheck").fieldNames().forEachRemaining(key -> {
                if (!ComposeSpec.HEALTHCHECK.contains(key)) {
                    unknown.add(name + ".healthcheck." + key);
                }
            });
            if (service.has("restart")) {
                assertThat(service.get("restart").asText())
                        .as(name + ".restart")
                        .matches(ComposeSpec.RESTART);
            }
        });
        assertThat(unknown).as("keys the Compose Specification does not define").isEmpty();
        // `version` is obsolete in the specification; docker compose warns about it.
        assertThat(compose.root().has("version")).isFalse();
    }

    @Test
    void runsTheComponentsTheReadmeDescribes() {
        assertThat(compose.service("kafka").path("image").asText()).startsWith("apache/kafka:4.");
        assertThat(compose.service("prometheus").path("image").asText()).startsWith("prom/prometheus:v3.");
        assertThat(compose.service("grafana").path("image").asText()).matches("grafana/grafana:1[12]\\..*");
        assertThat(compose.replicas()).containsExactly("word-count-1", "word-count-2");
        assertThat(compose.service("load").path("command").path(0).asText()).isEqualTo("load");
    }

    @Test
    void pinsEveryPulledImage() {
        compose.services().forEach((name, service) -> {
            String image = service.path("image").asText();
            if (!service.has("build")) {
                assertThat(image).as(name + " image").matches("[^:]+:[^:]+").doesNotEndWith(":latest");
            }
        });
    }

    @Test
    void runsKafkaInKraftModeForOneNode() {
        Map<String, String> env = ComposeFile.environment(compose.service("kafka"));
        assertThat(env)
                .containsEntry("KAFKA_PROCESS_ROLES", "broker,controller")
                .containsEntry("KAFKA_OFFSETS_TOPIC_REPLICATION_FACTOR", "1")
                .containsEntry("KAFKA_TRANSACTION_STATE_LOG_REPLICATION_FACTOR", "1")
                .containsEntry("KAFKA_TRANSACTION_STATE_LOG_MIN_ISR", "1")
                .containsEntry("KAFKA_GROUP_INITIAL_REBALANCE_DELAY_MS", "0");
        assertThat(env.get("KAFKA_CONTROLLER_QUORUM_VOTERS")).isEqualTo(env.get("KAFKA_NODE_ID") + "@kafka:9093");
        Set<String> advertised = Set.of(env.get("KAFKA_ADVERTISED_LISTENERS")
                .replaceAll("[A-Z_]+://", "")
                .split(","));
        // Every client in the compose network bootstraps from an address the broker advertises.
        compose.services().forEach((name, service) -> {
            String servers = ComposeFile.environment(service).get("WEIR_BOOTSTRAP_SERVERS");
            if (servers != null) {
                assertThat(advertised).as(name + "'s WEIR_BOOTSTRAP_SERVERS").contains(servers);
            }
        });
    }

    @Test
    void createsTheTopicsTheSampleReadsAndWrites() {
        JsonNode topics = compose.service("topics");
        assertThat(ComposeFile.environment(topics).get("TOPICS").split(" "))
                .containsExactlyInAnyOrder("lines", "word-counts");
        assertThat(Integer.parseInt(ComposeFile.environment(topics).get("PARTITIONS")))
                .as("partitions: at least one task per replica")
                .isGreaterThanOrEqualTo(compose.replicas().size());
        for (String service : List.of("word-count-1", "word-count-2", "load")) {
            assertThat(compose.service(service)
                            .path("depends_on")
                            .path("topics")
                            .path("condition")
                            .asText())
                    .as(service + " waits for the topics")
                    .isEqualTo("service_completed_successfully");
        }
    }

    @Test
    void givesEachReplicaItsOwnInstanceIdAndStateVolume() {
        Set<String> ids = new HashSet<>();
        Set<String> volumes = new HashSet<>();
        for (String replica : compose.replicas()) {
            JsonNode service = compose.service(replica);
            String id = ComposeFile.environment(service).get("WEIR_INSTANCE_ID");
            assertThat(id).as(replica + " WEIR_INSTANCE_ID").isNotBlank();
            assertThat(ids.add(id)).as("instance id " + id + " used twice").isTrue();
            String volume = ComposeFile.volumeAt(service, ComposeFile.STATE_DIR)
                    .orElseThrow(() -> new AssertionError(replica + " mounts no volume at " + ComposeFile.STATE_DIR));
            // A named volume, declared at the top level: it outlives the container, so a restarted
            // replica finds its RocksDB state and restores only the tail.
            assertThat(compose.root().path("volumes").has(volume))
                    .as(volume + " declared")
                    .isTrue();
            assertThat(volumes.add(volume))
                    .as("volume " + volume + " shared by two replicas")
                    .isTrue();
        }
        assertThat(ids).hasSize(2);
    }

    @Test
    void givesReplicasAGracePeriodLongerThanWeirsShutdownTimeout() {
        for (String replica : compose.replicas()) {
            JsonNode grace = compose.service(replica).path("stop_grace_period");
            assertThat(grace.isMissingNode()).as(replica + " stop_grace_period").isFalse();
            assertThat(ComposeFile.duration(grace.asText()))
                    .as(replica + " stop_grace_period")
                    .isGreaterThanOrEqualTo(Duration.ofSeconds(45));
        }
    }

    @Test
    void dependsOnlyOnServicesThatExist() {
        Map<String, JsonNode> services = compose.services();
        services.forEach((name, service) -> {
            JsonNode deps = service.path("depends_on");
            List<String> named = new ArrayList<>();
            if (deps.isArray()) {
                deps.forEach(d -> named.add(d.asText()));
            } else {
                deps.fields().forEachRemaining(e -> {
                    named.add(e.getKey());
                    e.getValue()
                            .fieldNames()
                            .forEachRemaining(key -> assertThat(ComposeSpec.DEPENDS_ON)
                                    .as(name + ".depends_on." + e.getKey())
                                    .contains(key));
                    String condition = e.getValue().path("condition").asText("service_started");
                    assertThat(ComposeSpec.CONDITIONS).as(name + " condition").contains(condition);
                    JsonNode dependency = services.get(e.getKey());
                    if (dependency != null && condition.equals("service_healthy")) {
                        assertThat(dependency.has("healthcheck"))
                                .as(e.getKey() + " has a health check")
                                .isTrue();
                    }
                    if (dependency != null && condition.equals("service_completed_successfully")) {
                        assertThat(dependency.path("restart").asText())
                                .as(e.getKey() + " is a one-shot")
                                .isEqualTo("no");
                    }
                });
            }
            assertThat(services.keySet()).as(name + " depends on").containsAll(named);
        });
    }

    @Test
    void publishesEachReplicasHttpPortOnItsOwnHostPort() {
        Map<Integer, String> hostPorts = new HashMap<>();
        compose.services()
                .forEach((name, service) -> ComposeFile.publishedPorts(service)
                        .keySet()
                        .forEach(port -> assertThat(hostPorts.put(port, name))
                                .as("host port " + port + " published twice")
                                .isNull()));
        for (String replica : compose.replicas()) {
            JsonNode service = compose.service(replica);
            int httpPort = Integer.parseInt(ComposeFile.environment(service).getOrDefault("WEIR_HTTP_PORT", "8080"));
            assertThat(ComposeFile.publishedPorts(service))
                    .as(replica + " ports")
                    .containsValue(httpPort);
        }
        assertThat(hostPorts)
                .containsEntry(8081, "word-count-1")
                .containsEntry(8082, "word-count-2")
                .containsEntry(3000, "grafana")
                .containsEntry(9090, "prometheus");
    }

    @Test
    void mountsFilesThatExist() {
        compose.services()
                .forEach((name, service) -> ComposeFile.bindMounts(service)
                        .keySet()
                        .forEach(source -> assertThat(
                                        Files.exists(RepositoryFiles.root().resolve(source)))
                                .as(name + " mounts " + source)
                                .isTrue()));
        compose.services().forEach((name, service) -> {
            if (service.has("build")) {
                assertThat(RepositoryFiles.root()
                                .resolve(service.path("build").path("context").asText())
                                .resolve(
                                        service.path("build").path("dockerfile").asText("Dockerfile"))
                                .normalize())
                        .as(name + " builds from the top-level Dockerfile")
                        .isEqualTo(RepositoryFiles.root().resolve("Dockerfile"));
            }
        });
    }

    @Test
    void readsComposeDurations() {
        assertThat(ComposeFile.duration("45s")).hasSeconds(45);
        assertThat(ComposeFile.duration("1m30s")).hasSeconds(90);
        assertThat(ComposeFile.duration("1h")).hasHours(1);
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> ComposeFile.duration("45"))
                .isInstanceOf(IllegalArgumentException.class);
    }
}
