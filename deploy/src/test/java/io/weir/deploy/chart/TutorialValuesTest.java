package io.weir.deploy.chart;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.apps.StatefulSet;
import io.weir.deploy.compose.RepositoryFiles;
import java.io.IOException;
import java.io.StringReader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Properties;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * Step 7 of docs/tutorial.md: the chart installed with the tutorial's helm-values.yaml, under the
 * release name the page's {@code helm install} gives, renders the service the page deploys (the
 * image it pushes, its application id, three replicas, the cluster's bootstrap servers) in a
 * StatefulSet of the name the page's {@code kubectl} commands use.
 */
class TutorialValuesTest {

    private static final Path VALUES = Path.of("docs/tutorial/orders-service/helm-values.yaml");
    private static final Pattern HELM_INSTALL = Pattern.compile("helm install (\\S+) \\S+ -f helm-values\\.yaml");
    private static final Pattern DOCKER_PUSH = Pattern.compile("docker push (\\S+)");

    @Test
    void rendersTheServiceThePageDeploysUnderTheNamesItsCommandsUse() throws IOException {
        Path root = RepositoryFiles.root();
        String page = Files.readString(root.resolve("docs/tutorial.md"));
        String release = group(HELM_INSTALL, page);

        WeirChart.Manifests manifests =
                WeirChart.bare().release(release).values(root.resolve(VALUES)).render();

        StatefulSet statefulSet = manifests.only(StatefulSet.class);
        String name = statefulSet.getMetadata().getName();
        assertThat(page)
                .as("the page's kubectl commands name the StatefulSet")
                .contains("kubectl rollout status statefulset/" + name)
                .contains("kubectl scale statefulset/" + name);
        Container weir =
                statefulSet.getSpec().getTemplate().getSpec().getContainers().get(0);
        assertThat(weir.getImage())
                .isEqualTo("registry.example.com/orders-service:0.1.0-SNAPSHOT")
                .as("the image the page pushes")
                .isEqualTo(group(DOCKER_PUSH, page));
        assertThat(statefulSet.getSpec().getReplicas()).isEqualTo(3);
        Properties weirProperties = new Properties();
        weirProperties.load(new StringReader(
                manifests.named(ConfigMap.class, name).getData().get("weir.properties")));
        assertThat(weirProperties)
                .containsEntry("application.id", "orders-service") // OrdersService.APPLICATION_ID
                .containsEntry("bootstrap.servers", "kafka-0.kafka:9092,kafka-1.kafka:9092,kafka-2.kafka:9092");
    }

    private static String group(Pattern pattern, String page) {
        Matcher m = pattern.matcher(page);
        assertThat(m.find()).as("docs/tutorial.md has %s", pattern).isTrue();
        return m.group(1);
    }
}
