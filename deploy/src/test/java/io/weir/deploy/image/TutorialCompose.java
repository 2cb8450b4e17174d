package io.weir.deploy.image;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.weir.deploy.compose.ComposeFile;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The tutorial's compose.yaml (docs/tutorial/orders-service) read as {@link TutorialIT} runs it in
 * its place, since its Kafka image cannot be pulled here: the topics its {@code topics} service
 * creates, and the {@code orders-service} service's environment, published container port, state
 * volume and grace period. Reading fails on anything the test could not run as written.
 *
 * @param topics in the order the {@code topics} service creates them
 * @param environment the service's, as written (its bootstrap servers name the compose network's broker)
 * @param containerPort the port the service publishes inside the container
 * @param stateDir where its named volume is mounted
 * @param stopGracePeriod its {@code stop_grace_period}
 */
record TutorialCompose(
        List<Topic> topics,
        Map<String, String> environment,
        int containerPort,
        String stateDir,
        Duration stopGracePeriod) {

    static final String PATH = "docs/tutorial/orders-service/compose.yaml";
    static final String SERVICE = "orders-service";

    /** One {@code $$topics --topic NAME --partitions N [--config K=V]...} line of the topics service. */
    private static final Pattern CREATE =
            Pattern.compile("\\$\\$topics --topic (\\S+) --partitions (\\d+)((?: --config \\S+=\\S+)*)");

    private static final Pattern CONFIG = Pattern.compile("--config (\\S+)=(\\S+)");

    /** A topic the topics service creates. */
    record Topic(String name, int partitions, Map<String, String> configs) {}

    static TutorialCompose load() {
        ComposeFile compose = ComposeFile.load(PATH);
        JsonNode service = compose.service(SERVICE);
        assertThat(service.path("build").asText())
                .as("%s builds the Dockerfile beside compose.yaml", SERVICE)
                .isEqualTo(".");
        assertThat(service.path("depends_on").path("topics").path("condition").asText())
                .as("%s starts once the topics exist", SERVICE)
                .isEqualTo("service_completed_successfully");
        Map<Integer, Integer> ports = ComposeFile.publishedPorts(service);
        assertThat(ports).as("%s ports", SERVICE).hasSize(1);
        String stateDir = ComposeFile.STATE_DIR;
        String volume = ComposeFile.volumeAt(service, stateDir)
                .orElseThrow(() -> new AssertionError(SERVICE + " mounts no volume at " + stateDir));
        assertThat(compose.root().path("volumes").has(volume))
                .as("volume %s declared, so it outlives the container", volume)
                .isTrue();
        Duration grace = ComposeFile.duration(service.path("stop_grace_period").asText("0s"));
        return new TutorialCompose(
                topics(compose),
                ComposeFile.environment(service),
                ports.values().iterator().next(),
                stateDir,
                grace);
    }

    /** The topics the {@code topics} service's script creates, one {@code $$topics} line each. */
    private static List<Topic> topics(ComposeFile compose) {
        String script = compose.service("topics").path("command").path(0).asText();
        assertThat(script)
                .as("the topics service's script")
                .contains(
                        "kafka-topics.sh --bootstrap-server kafka:9092 --create --if-not-exists --replication-factor 1");
        List<Topic> topics = new ArrayList<>();
        for (String line : script.lines().map(String::strip).toList()) {
            if (line.startsWith("$$topics")) {
                Matcher m = CREATE.matcher(line);
                assertThat(m.matches())
                        .as("a topics line this test can run: %s", line)
                        .isTrue();
                Map<String, String> configs = new LinkedHashMap<>();
                Matcher c = CONFIG.matcher(m.group(3));
                while (c.find()) {
                    configs.put(c.group(1), c.group(2));
                }
                topics.add(new Topic(m.group(1), Integer.parseInt(m.group(2)), configs));
            }
        }
        return topics;
    }

    /** The kafka service's listener for the compose network, which the service must bootstrap from. */
    static String internalBroker() {
        return ComposeFile.environment(ComposeFile.load(PATH).service("kafka"))
                .get("KAFKA_ADVERTISED_LISTENERS")
                .replaceAll(".*INTERNAL://([^,]+).*", "$1");
    }
}
