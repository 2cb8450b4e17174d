package io.weir.deploy.image;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.weir.deploy.image.TutorialCompose.Topic;
import io.weir.testkit.EmbeddedKafka;
import io.weir.testkit.HttpProbe;
import io.weir.testkit.KafkaTestClient;
import io.weir.testkit.NestedMaven;
import io.weir.testkit.Podman;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.UUID;
import java.util.regex.Pattern;
import java.util.stream.StreamSupport;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.CleanupMode;
import org.junit.jupiter.api.io.TempDir;

/**
 * docs/tutorial.md's service (docs/tutorial/orders-service) built and run as a reader of the page
 * builds and runs it:
 * <ol>
 *   <li>this build's Weir installed with {@link NestedMaven#installWeir} into a local repository of
 *       the test's own, the project copied to an empty directory and built there with {@code mvn
 *       verify}: its unit test (OrdersServiceTest) and real-broker test (OrdersServiceIT) pass, and
 *       {@code target/orders-service.jar} and its libraries in {@code target/lib} are there;</li>
 *   <li>step 6: the image built from the copy's Dockerfile (Podman, on the JRE base made from
 *       Debian's packages: no registry here), then run as compose.yaml runs it ({@link
 *       TutorialCompose}: its environment, its state on a volume, its grace period), against a
 *       broker of the test on the host's network in place of compose's apache/kafka, with the topics
 *       the {@code topics} service creates. It becomes ready, is fed the page's customer and orders
 *       ({@link TutorialPage}), answers the page's {@code curl} with the count the page shows, logs
 *       no warning or error on this happy path, and {@code podman stop} ends it gracefully (exit
 *       status 143, the JVM's after SIGTERM and its shutdown hooks) within the grace period.</li>
 * </ol>
 * The Helm values of step 7 are rendered by {@code chart.TutorialValuesTest}. Prints {@code FIGURE}
 * lines: the nested builds, the image build, container start to ready, stop. Tagged {@code full}: a
 * nested build and an image of its own, run by {@code mvn verify -Pfull}; the temporary directory,
 * with the builds' logs, is kept when it fails.
 */
@Tag("full")
class TutorialIT {

    private static final String PROJECT = "docs/tutorial/orders-service";
    private static final Duration INSTALL_DEADLINE = Duration.ofMinutes(5);
    private static final Duration BUILD_DEADLINE = Duration.ofMinutes(8);
    private static final Duration READY_TIMEOUT = Duration.ofSeconds(90);
    private static final Duration COUNT_TIMEOUT = Duration.ofSeconds(60);
    private static final Duration PODMAN_TIMEOUT = Duration.ofSeconds(60);
    private static final int JVM_EXIT_AFTER_SIGTERM = 143;
    private static final ObjectMapper JSON = new ObjectMapper();
    /** A line of the service's logback pattern at WARN or ERROR, or the JVM's own warning. */
    private static final Pattern WARNING = Pattern.compile("^(\\S+ (WARN|ERROR) |WARNING\\b|ERROR\\b)");

    @TempDir(cleanup = CleanupMode.ON_SUCCESS)
    Path work;

    private final Podman podman = Podman.withRuncWhenPresent();
    private final String run = "weir-tutorial-" + UUID.randomUUID().toString().substring(0, 8);
    private final List<String> containers = new ArrayList<>();
    private String volume;
    private String image;

    @AfterEach
    void removeContainerVolumeAndImage() {
        for (String c : containers) {
            podman.run(PODMAN_TIMEOUT, "rm", "-f", "-t", "0", c);
        }
        if (volume != null) {
            podman.run(PODMAN_TIMEOUT, "volume", "rm", "-f", volume);
        }
        if (image != null) {
            podman.run(PODMAN_TIMEOUT, "rmi", "-f", image);
        }
    }

    @Test
    void tutorialServiceBuildsFromACopyAndItsImageRunsAsComposeRunsIt() throws IOException {
        Path root = ImageBuild.repositoryRoot();
        // The files of step 6 first: a page or compose file this test cannot follow fails before the builds.
        TutorialCompose compose = TutorialCompose.load();
        TutorialPage page = TutorialPage.read(root);
        checkComposeAndPage(compose, page);
        assertThat(Files.readString(root.resolve(PROJECT).resolve("Dockerfile")))
                .as("the image keeps its state where compose mounts the volume")
                .contains("WEIR_STATE_DIR=" + compose.stateDir());

        Path project = buildCopy(root);

        long started = System.nanoTime();
        image = ImageBuild.buildProject(project, "localhost/" + run + ":latest");
        figure("tutorial image built from its Dockerfile", started);

        try (EmbeddedKafka kafka = EmbeddedKafka.start();
                KafkaTestClient client = KafkaTestClient.connect(kafka.bootstrapServers())) {
            for (Topic topic : compose.topics()) { // what the topics service creates
                client.createTopic(topic.name(), topic.partitions(), topic.configs());
            }
            int port = freePort();
            started = System.nanoTime();
            String container = serve(compose, kafka, port);
            awaitReady(container, port);
            figure("tutorial container start to ready", started);

            client.produceStrings(page.customersTopic(), page.customers());
            client.produceStrings(page.ordersTopic(), page.orders(System.currentTimeMillis()));
            awaitCount(port, page);

            stopGracefully(container, compose.stopGracePeriod());
            String log = logs(container);
            assertThat(log).as("the line the page tells readers to wait for").contains("orders-service is running: ");
            List<String> warnings =
                    log.lines().filter(l -> WARNING.matcher(l).find()).toList();
            warnings.forEach(w -> System.out.println("TutorialIT container log: " + w));
            assertThat(warnings)
                    .as("warnings and errors an operator would read on the happy path; the log:%n%s", log)
                    .isEmpty();
        }
    }

    /** What the test runs in compose's place is what compose.yaml and the page say. */
    private static void checkComposeAndPage(TutorialCompose compose, TutorialPage page) {
        assertThat(compose.topics())
                .as("the topics of %s, which the test creates", TutorialCompose.PATH)
                .containsExactly(
                        new Topic("customers", 2, Map.of("cleanup.policy", "compact")),
                        new Topic("orders", 4, Map.of()),
                        new Topic("orders-per-minute", 2, Map.of()));
        assertThat(compose.environment())
                .as("the service's environment: the test replaces only the broker's address")
                .containsOnlyKeys("WEIR_BOOTSTRAP_SERVERS", "WEIR_INSTANCE_ID")
                .containsEntry("WEIR_BOOTSTRAP_SERVERS", TutorialCompose.internalBroker())
                .containsEntry("WEIR_INSTANCE_ID", "orders-service-1");
        assertThat(compose.containerPort())
                .as("the published port is Weir's default http.port, which the test moves with WEIR_HTTP_PORT")
                .isEqualTo(8080)
                .isEqualTo(page.port());
        assertThat(compose.stopGracePeriod())
                .as("stop_grace_period, above shutdown.timeout.ms (30 s)")
                .isEqualTo(Duration.ofSeconds(45));
        assertThat(List.of(page.customersTopic(), page.ordersTopic())).containsExactly("customers", "orders");
        assertThat(page.query()).isEqualTo("/stores/orders-per-minute/keys/north/windows");
    }

    /** Step 1: Weir installed, the project copied to an empty directory and built with {@code mvn verify}. */
    private Path buildCopy(Path root) {
        Path project = NestedMaven.copyProject(root.resolve(PROJECT), work.resolve("orders-service"));
        try (NestedMaven maven = NestedMaven.isolated(work)) {
            figure("nested install of Weir", maven.installWeir(root, INSTALL_DEADLINE));
            figure(
                    "mvn verify of the copied tutorial",
                    maven.run("verify-orders-service", project, BUILD_DEADLINE, "verify"));
        }
        NestedMaven.assertPassed(project.resolve("target/surefire-reports"), "com.example.orders.OrdersServiceTest");
        NestedMaven.assertPassed(project.resolve("target/failsafe-reports"), "com.example.orders.OrdersServiceIT");
        assertThat(project.resolve("target/orders-service.jar")).isRegularFile();
        assertThat(project.resolve("target/lib"))
                .as("the libraries the jar's manifest names")
                .isDirectoryContaining("glob:**/weir-framework-*.jar")
                .isDirectoryContaining("glob:**/logback-classic-*.jar");
        return project;
    }

    /** {@code podman run -d} of the image as compose runs the service, on the host's network. */
    private String serve(TutorialCompose compose, EmbeddedKafka kafka, int port) {
        volume = podman.require(PODMAN_TIMEOUT, "volume", "create", run).trim();
        String name = run + "-orders-service";
        List<String> cmd = new ArrayList<>(List.of("run", "-d", "--name", name));
        cmd.addAll(Podman.ULIMITS);
        cmd.addAll(List.of("--network", "host", "-v", volume + ":" + compose.stateDir()));
        compose.environment().forEach((key, value) -> {
            cmd.add("-e");
            cmd.add(key + "=" + (key.equals("WEIR_BOOTSTRAP_SERVERS") ? kafka.bootstrapServers() : value));
        });
        // The host's network has no port mapping: the port compose publishes becomes a free one.
        cmd.addAll(List.of("-e", "WEIR_HTTP_PORT=" + port, image));
        podman.require(PODMAN_TIMEOUT, cmd.toArray(String[]::new));
        containers.add(name);
        return name;
    }

    private void awaitReady(String container, int port) {
        HttpProbe probe = HttpProbe.localhost(port);
        await("/health/ready of " + container)
                .atMost(READY_TIMEOUT)
                .pollInterval(Duration.ofMillis(200))
                .until(() -> {
                    if (!running(container)) {
                        throw new AssertionError(container + " is not running; its log:\n" + logs(container));
                    }
                    return probe.status("/health/ready") == 200;
                });
    }

    /** The page's {@code curl}, until it answers a window with the count the page shows. */
    private static void awaitCount(int port, TutorialPage page) {
        HttpProbe probe = HttpProbe.localhost(port);
        String[] last = {""};
        await("a window of " + page.value() + " in " + page.query())
                .atMost(COUNT_TIMEOUT)
                .pollInterval(Duration.ofMillis(200))
                .untilAsserted(() -> {
                    HttpProbe.Response r = probe.get(page.query());
                    last[0] = r.status() + " " + r.body();
                    assertThat(r.status()).as(last[0]).isEqualTo(200);
                    JsonNode windows = JSON.readTree(r.body()).path("windows");
                    assertThat(StreamSupport.stream(windows.spliterator(), false)
                                    .map(w -> w.path("value").asLong())
                                    .toList())
                            .as(last[0])
                            .containsExactly(page.value());
                });
        System.out.println("TutorialIT GET " + page.query() + ": " + last[0]);
    }

    private void stopGracefully(String container, Duration grace) {
        long started = System.nanoTime();
        podman.require(grace.plusSeconds(30), "stop", "-t", Long.toString(grace.toSeconds()), container);
        Duration took = Duration.ofNanos(System.nanoTime() - started);
        figure("tutorial container podman stop (SIGTERM) to exited", started);
        int exit =
                Integer.parseInt(podman.require(PODMAN_TIMEOUT, "inspect", "--format", "{{.State.ExitCode}}", container)
                        .trim());
        assertThat(exit)
                .as(
                        "exit status after SIGTERM (137 would be SIGKILL after the grace period); log:%n%s",
                        logs(container))
                .isEqualTo(JVM_EXIT_AFTER_SIGTERM);
        assertThat(took).as("stopped within the grace period, by itself").isLessThan(grace.minusSeconds(5));
    }

    private boolean running(String container) {
        return podman.run(PODMAN_TIMEOUT, "inspect", "--format", "{{.State.Running}}", container)
                .output()
                .trim()
                .equals("true");
    }

    private String logs(String container) {
        return podman.run(PODMAN_TIMEOUT, "logs", container).output();
    }

    private static void figure(String what, Duration took) {
        System.out.printf(Locale.ROOT, "FIGURE %s: %.1f s%n", what, took.toMillis() / 1e3);
    }

    private static void figure(String what, long startedNanos) {
        figure(what, Duration.ofNanos(System.nanoTime() - startedNanos));
    }

    private static int freePort() {
        try (ServerSocket s = new ServerSocket(0)) {
            return s.getLocalPort();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
