package io.weir.deploy.compose;

import static org.assertj.core.api.Assertions.assertThat;

import io.weir.testkit.KafkaExtension;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.common.serialization.LongDeserializer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The application services of docker-compose.yml in real containers: a testkit broker stands in
 * for the Kafka service, with the topics the topics service would create, and
 * deploy/compose/run-app-services.sh runs word-count-1, word-count-2 and load with podman-compose
 * and deploy/compose/test-override.yml (both replicas ready, output arriving, a replica killed and
 * started again on its volume coming back with its own tasks while the other keeps its own, a
 * graceful stop within the grace period). Here the output is also read back from the topic.
 *
 * <p>Needs Podman (the script installs it when missing, as root) and the Weir image
 * ({@code -Dweir.compose.image}, default localhost/weir-samples:latest, which the script builds
 * with deploy/containers/build-image.sh when that exists). A container test of the {@code full}
 * group: run only when asked for, so a missing image fails it, naming what to build, rather than
 * skipping it (a skip under {@code CI=true} would pass a run that checked nothing).
 */
@Tag("full")
class ComposeAppServicesIT {

    @RegisterExtension
    static final KafkaExtension KAFKA = KafkaExtension.perClass();

    private static final Duration SCRIPT_TIMEOUT = Duration.ofMinutes(10);
    private static final int NO_IMAGE = 3;

    @Test
    void appServicesRunRestartWithoutMovingTasksAndStopGracefully() throws Exception {
        // What the topics service of docker-compose.yml creates: the sample's input and output.
        KAFKA.createTopic("lines", 6, Map.of());
        KAFKA.createTopic("word-counts", 6, Map.of());

        Path root = RepositoryFiles.root();
        Path log = root.resolve("deploy/target/run-app-services.log");
        Files.createDirectories(log.getParent());
        ProcessBuilder script = new ProcessBuilder(
                        "bash",
                        root.resolve("deploy/compose/run-app-services.sh").toString())
                .directory(root.toFile())
                .redirectErrorStream(true)
                .redirectOutput(log.toFile());
        script.environment().put("WEIR_BOOTSTRAP_SERVERS", KAFKA.bootstrapServers());
        String image = System.getProperty("weir.compose.image");
        if (image != null && !image.isBlank()) {
            script.environment().put("WEIR_IMAGE", image);
        }
        Process process = script.start();
        boolean finished = process.waitFor(SCRIPT_TIMEOUT.toSeconds(), TimeUnit.SECONDS);
        if (!finished) {
            process.descendants().forEach(ProcessHandle::destroy);
            process.destroy();
            process.waitFor(60, TimeUnit.SECONDS);
        }
        String output = read(log);
        System.out.println(output);
        assertThat(finished)
                .as("run-app-services.sh finished within %s; its output:%n%s", SCRIPT_TIMEOUT, output)
                .isTrue();
        assertThat(process.exitValue())
                .as(
                        "run-app-services.sh found no Weir image to run (build it with"
                                + " deploy/containers/build-image.sh, or name one with -Dweir.compose.image); its output:%n%s",
                        output)
                .isNotEqualTo(NO_IMAGE);
        assertThat(process.exitValue())
                .as("run-app-services.sh exit status; its output:%n%s", output)
                .isZero();
        assertThat(output)
                .contains(
                        "RESULT up_to_ready_seconds=", "RESULT takeover_seconds=", "RESULT restart_to_ready_seconds=");

        // The counts the replicas committed are in the output topic, readable with read_committed.
        assertThat(KAFKA.client()
                        .readAllCommitted(
                                "word-counts",
                                new StringDeserializer(),
                                new LongDeserializer(),
                                Duration.ofSeconds(30)))
                .as("committed counts in word-counts")
                .isNotEmpty()
                .allSatisfy(r -> assertThat(r.value()).isPositive());
    }

    private static String read(Path log) throws IOException {
        return Files.exists(log) ? Files.readString(log) : "";
    }
}
