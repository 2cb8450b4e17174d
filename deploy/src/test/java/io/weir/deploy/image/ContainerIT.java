package io.weir.deploy.image;

import static org.assertj.core.api.Assertions.assertThat;

import io.weir.common.KeyValue;
import io.weir.samples.wordcount.WordCount;
import io.weir.testkit.Command;
import io.weir.testkit.EmbeddedKafka;
import io.weir.testkit.HttpProbe;
import io.weir.testkit.KafkaTestClient;
import io.weir.testkit.Podman;
import io.weir.testkit.Records;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.ServerSocket;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.UUID;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * The samples image in real containers (Podman, as CI has no Docker engine): built from the
 * top-level Dockerfile on a JRE base made from Debian's packages, then {@code serve word-count}
 * against a broker of the test (on the host; the containers use the host's network), with its
 * state on a named volume:
 * <ol>
 *   <li>from container start, {@code /health/ready} turns 200 (timed: empty state);</li>
 *   <li>the counts of the test's lines and of a {@code load word-count} container are exact, read
 *       back {@code read_committed};</li>
 *   <li>the image's HEALTHCHECK passes;</li>
 *   <li>the weir CLI in the image ({@code --entrypoint weir}) prints its help, and describes the
 *       running application: its member with the instance id, input lag and changelog, with only
 *       the CLI's own output (its logback.xml, warnings only, wins over the samples');</li>
 *   <li>{@code podman stop} (SIGTERM, 45 s grace) stops it gracefully: exit status 143 (the JVM's
 *       status after SIGTERM and its shutdown hooks) well within the grace period, and the log says
 *       it stopped keeping its group membership;</li>
 *   <li>a new container on the same volume and instance id is ready again (timed), restores only
 *       the changelog tail (none of the thousands of counts it holds), and counts the lines fed
 *       while it was down exactly once.</li>
 * </ol>
 * Prints {@code FIGURE} lines: image size, start to ready, the CLI's two runs, stop, restart to ready,
 * records restored.
 */
@Tag("full")
class ContainerIT {

    private static final Duration READY_TIMEOUT = Duration.ofSeconds(90);
    private static final Duration COUNTS_TIMEOUT = Duration.ofSeconds(90);
    private static final Duration PODMAN_TIMEOUT = Duration.ofSeconds(60);
    /** Longer than Weir's shutdown.timeout.ms (30 s), as docs/operating.md advises for any orchestrator. */
    private static final int STOP_GRACE_SECONDS = 45;

    private static final int JVM_EXIT_AFTER_SIGTERM = 143;
    private static final int VOCABULARY = 3000;
    private static final Pattern RESTORED = Pattern.compile("(?m)^weir_restore_records_total\\{[^}]*} ([0-9.E]+)$");

    private static String image;
    private final Podman podman = Podman.withRuncWhenPresent();
    private final String run = "weir-it-" + UUID.randomUUID().toString().substring(0, 8);
    private final List<String> containers = new ArrayList<>();
    private String volume;

    @BeforeAll
    static void buildImage() {
        image = ImageBuild.build();
    }

    @AfterEach
    void removeContainersAndVolume() {
        for (String c : containers) {
            podman.run(PODMAN_TIMEOUT, "rm", "-f", "-t", "0", c);
        }
        if (volume != null) {
            podman.run(PODMAN_TIMEOUT, "volume", "rm", "-f", volume);
        }
    }

    @Test
    void servesWordCountDescribedByTheImagesCliStopsGracefullyAndRestoresOnlyTheTailOnItsVolume() {
        try (EmbeddedKafka kafka = EmbeddedKafka.start();
                KafkaTestClient client = KafkaTestClient.connect(kafka.bootstrapServers())) {
            client.createTopic("lines", 4);
            client.createTopic("word-counts", 4);
            volume = podman.run(PODMAN_TIMEOUT, "volume", "create", run)
                    .requireSuccess("volume create")
                    .output()
                    .trim();
            int port = freePort();
            Random random = new Random(42);

            // 1. Start to ready, empty state.
            long started = System.nanoTime();
            String first = serve(kafka, port, run + "-1");
            awaitReady(first, port);
            figure("container start to ready (empty state)", started);

            // 2. Exact counts of the test's lines and of the load generator's.
            List<String> lines = lines(random, 1500);
            feed(client, lines, 0);
            Command.Result load = podman.run(
                            Duration.ofSeconds(90),
                            container(kafka, run + "-load", "load", "word-count", "--rate", "200", "--duration", "3")
                                    .toArray(String[]::new))
                    .requireSuccess("load word-count");
            assertThat(load.output()).containsPattern("LOAD word-count sent [1-9][0-9]* records to 'lines'");
            Map<String, Long> expected = expectedFromInput(client);
            awaitCounts(client, expected);

            // 3. The image's HEALTHCHECK (bash and /dev/tcp against /health/live).
            podman.run(PODMAN_TIMEOUT, "healthcheck", "run", first).requireSuccess("healthcheck run");

            // 4. The weir CLI in the image, against the running application.
            checkCli(kafka);

            // 5. A graceful stop within the grace period.
            stopGracefully(first);

            // 6. Lines fed while it is down; a new container on the same volume restores only the tail.
            feed(client, lines(random, 200), lines.size());
            Map<String, Long> expectedAfter = expectedFromInput(client);
            long restarted = System.nanoTime();
            String second = serve(kafka, port, run + "-2");
            awaitReady(second, port);
            figure("container restart on its volume to ready", restarted);
            awaitCounts(client, expectedAfter);
            double restoredRecords = restoredRecords(port);
            System.out.printf(
                    "FIGURE records restored on restart: %.0f, keys held: %d%n", restoredRecords, expected.size());
            assertThat(restoredRecords)
                    .as("only the changelog tail is restored, not the %d counts held", expected.size())
                    .isLessThan(expected.size() / 10.0);
            stopGracefully(second);
        }
    }

    /** {@code podman run -d ... serve word-count} as instance word-count-1 on the volume; returns the name. */
    private String serve(EmbeddedKafka kafka, int port, String name) {
        List<String> cmd = new ArrayList<>(List.of("run", "-d", "--name", name));
        cmd.addAll(Podman.ULIMITS);
        cmd.addAll(List.of(
                "--network",
                "host",
                "-v",
                volume + ":/var/lib/weir",
                "-e",
                "WEIR_BOOTSTRAP_SERVERS=" + kafka.bootstrapServers(),
                "-e",
                "WEIR_INSTANCE_ID=word-count-1",
                "-e",
                "WEIR_HTTP_PORT=" + port,
                image,
                "serve",
                "word-count"));
        podman.run(PODMAN_TIMEOUT, cmd.toArray(String[]::new)).requireSuccess("podman run serve word-count");
        containers.add(name);
        return name;
    }

    /** {@code weir --help}, then {@code weir describe} of the running word count, each in a container of the image. */
    private void checkCli(EmbeddedKafka kafka) {
        long started = System.nanoTime();
        Command.Result help =
                podman.run(PODMAN_TIMEOUT, cli(run + "-cli-help", "--help")).requireSuccess("weir --help");
        assertThat(help.output()).contains("Usage: weir", "describe", "savepoint", "reset");
        Command.Result describe = podman.run(
                        PODMAN_TIMEOUT,
                        cli(
                                run + "-cli-describe",
                                "describe",
                                "--app",
                                "word-count",
                                "--bootstrap-servers",
                                kafka.bootstrapServers()))
                .requireSuccess("weir describe --app word-count");
        assertThat(describe.output())
                .contains(
                        "Application word-count: consumer group Stable, 1 member(s)",
                        "word-count-1",
                        "Total lag:",
                        "Internal topics:",
                        "changelog")
                .as("the CLI's logging (warnings only), not the samples' or Kafka's INFO lines")
                .doesNotContain(" INFO ", "AdminClientConfig values");
        figure("weir --help and weir describe in containers of the image", started);
    }

    /** {@code run --rm --entrypoint weir} of the image, then {@code args}. */
    private String[] cli(String name, String... args) {
        List<String> cmd = new ArrayList<>(List.of("run", "--rm", "--name", name, "--entrypoint", "weir"));
        cmd.addAll(Podman.ULIMITS);
        cmd.addAll(List.of("--network", "host", image));
        cmd.addAll(List.of(args));
        return cmd.toArray(String[]::new);
    }

    /** {@code run --rm} of the image with the cluster's address, then {@code args}. */
    private List<String> container(EmbeddedKafka kafka, String name, String... args) {
        List<String> cmd = new ArrayList<>(List.of("run", "--rm", "--name", name));
        cmd.addAll(Podman.ULIMITS);
        cmd.addAll(List.of("--network", "host", "-e", "WEIR_BOOTSTRAP_SERVERS=" + kafka.bootstrapServers(), image));
        cmd.addAll(List.of(args));
        return cmd;
    }

    private void awaitReady(String container, int port) {
        HttpProbe probe = HttpProbe.localhost(port);
        long deadline = System.nanoTime() + READY_TIMEOUT.toNanos();
        while (probe.status("/health/ready") != 200) {
            String state = podman.run(PODMAN_TIMEOUT, "inspect", "--format", "{{.State.Running}}", container)
                    .output()
                    .trim();
            if (!state.equals("true") || System.nanoTime() - deadline > 0) {
                throw new AssertionError(
                        container + (state.equals("true") ? " not ready within " + READY_TIMEOUT : " is not running")
                                + "; its log:\n" + logs(container));
            }
            pause(); // polling interval of the probe, not a guess at how long start-up takes
        }
    }

    private void stopGracefully(String container) {
        long started = System.nanoTime();
        podman.run(
                        Duration.ofSeconds(STOP_GRACE_SECONDS + 30),
                        "stop",
                        "-t",
                        Integer.toString(STOP_GRACE_SECONDS),
                        container)
                .requireSuccess("podman stop");
        double seconds = (System.nanoTime() - started) / 1e9;
        System.out.printf("FIGURE podman stop (SIGTERM) to exited: %.1f s%n", seconds);
        int exit = Integer.parseInt(podman.run(PODMAN_TIMEOUT, "inspect", "--format", "{{.State.ExitCode}}", container)
                .requireSuccess("inspect")
                .output()
                .trim());
        String log = logs(container);
        assertThat(exit)
                .as("exit status after SIGTERM (137 would be SIGKILL after the grace period); log:\n%s", log)
                .isIn(0, JVM_EXIT_AFTER_SIGTERM);
        assertThat(seconds).as("stopped within the grace period, by itself").isLessThan(STOP_GRACE_SECONDS - 5);
        assertThat(log)
                .contains("keeping its group membership for a restart with the same instance.id")
                .contains("word-count stopped");
    }

    private String logs(String container) {
        return podman.run(PODMAN_TIMEOUT, "logs", container).output();
    }

    private static void awaitCounts(KafkaTestClient client, Map<String, Long> expected) {
        List<ConsumerRecord<byte[], byte[]>> read = client.readUntil(
                "word-counts", records -> Records.lastLongPerKey(records).equals(expected), COUNTS_TIMEOUT);
        assertThat(Records.lastLongPerKey(read)).isEqualTo(expected);
    }

    /** What the counts must end at: the words of every line on the input topic (the test's and the load's). */
    private static Map<String, Long> expectedFromInput(KafkaTestClient client) {
        return WordCount.expectedCounts(client.readAllCommittedStrings("lines", COUNTS_TIMEOUT).stream()
                .map(ConsumerRecord::value)
                .toList());
    }

    /** Lines of six words from a vocabulary of {@value #VOCABULARY}, so the store holds thousands of counts. */
    private static List<String> lines(Random random, int count) {
        List<String> lines = new ArrayList<>(count);
        for (int i = 0; i < count; i++) {
            StringBuilder line = new StringBuilder();
            for (int w = 0; w < 6; w++) {
                line.append(w == 0 ? "" : " ").append("w").append(random.nextInt(VOCABULARY));
            }
            lines.add(line.toString());
        }
        return lines;
    }

    private static void feed(KafkaTestClient client, List<String> lines, int firstKey) {
        List<KeyValue<String, String>> records = new ArrayList<>(lines.size());
        for (int i = 0; i < lines.size(); i++) {
            records.add(KeyValue.of("test-line-" + (firstKey + i), lines.get(i)));
        }
        client.produceStrings("lines", records);
    }

    private static double restoredRecords(int port) {
        Matcher m = RESTORED.matcher(HttpProbe.localhost(port).get("/metrics").body());
        double sum = 0;
        while (m.find()) {
            sum += Double.parseDouble(m.group(1));
        }
        return sum;
    }

    private static void figure(String what, long startedNanos) {
        System.out.printf("FIGURE %s: %.2f s%n", what, (System.nanoTime() - startedNanos) / 1e9);
    }

    private static int freePort() {
        try (ServerSocket s = new ServerSocket(0)) {
            return s.getLocalPort();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static void pause() {
        try {
            Thread.sleep(100);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", e);
        }
    }
}
