package io.weir.deploy.image;

import static org.assertj.core.api.Assertions.assertThat;

import io.weir.samples.wordcount.WordCount;
import io.weir.samples.wordcount.WordCountV2;
import io.weir.testkit.Command;
import io.weir.testkit.EmbeddedKafka;
import io.weir.testkit.KafkaTestClient;
import io.weir.testkit.Podman;
import io.weir.testkit.Records;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * The walk-through "Try a new version beside production" of docs/deploying.md, run against the
 * samples image with Podman: the test reads the walk-through's block from the page and runs it line
 * by line, in order. Every {@code weir ...} line runs as written in a container of the image
 * ({@code --entrypoint weir}, the cluster from {@code WEIR_BOOTSTRAP_SERVERS}, as the {@code load}
 * service gives it); each {@code docker ...} line runs as its Podman equivalent against a broker of
 * the test, in place of the compose deployment: production is one {@code serve word-count}
 * container (instance {@code word-count-1}; the compose file's second replica is left out to spare
 * the machine), the {@code load} service a {@code load word-count --rate 50} container, the
 * {@code topics} service a topic created by the test, and every container gets an HTTP port of its
 * own (they share the host's network here, where compose gives each its own). A line the test does
 * not know fails it.
 *
 * <p>Checked: the exit status and output of every {@code weir} line as the page describes them,
 * that the restore without {@code --map-store} is refused, that {@code weir diff} finds every word
 * equal but {@code a}, and that after the promotion {@code word-counts} holds exactly v2's counts of
 * every line fed, with production's last count of {@code a}. Prints {@code FIGURE} lines.
 */
@Tag("full")
class ReplayWalkthroughIT {

    private static final String MARKER = "<!-- walkthrough: replay";
    private static final Duration PODMAN_TIMEOUT = Duration.ofSeconds(90);
    private static final Duration CATCH_UP = Duration.ofSeconds(120);
    private static final int PARTITIONS = 6;

    private static final Pattern DEFINE_WEIR =
            Pattern.compile("weir\\(\\) \\{ docker compose run --rm --no-deps --entrypoint weir load \"\\$@\"; }");
    private static final Pattern WEIR = Pattern.compile("weir (.+)");
    private static final Pattern STOP_LOAD = Pattern.compile("docker compose stop load");
    private static final Pattern START_LOAD = Pattern.compile("docker compose start load");
    private static final Pattern LOAD_FOR =
            Pattern.compile("docker compose start load && sleep (\\d+) && docker compose stop load");
    private static final Pattern CREATE_TOPIC =
            Pattern.compile("docker compose run --rm --no-deps -e TOPICS=(\\S+) topics");
    private static final Pattern RUN_SERVICE =
            Pattern.compile("docker compose run -d --no-deps --name (\\S+)((?: -e \\S+=\\S+)*) load (serve .+)");
    private static final Pattern STOP_PRODUCTION = Pattern.compile("docker compose stop word-count-1 word-count-2");
    private static final Pattern DOCKER_STOP = Pattern.compile("docker stop -t (\\d+) (\\S+)");

    private static String image;
    private final Podman podman = Podman.withRuncWhenPresent();
    private final String run = "weir-walk-" + UUID.randomUUID().toString().substring(0, 8);
    /** Containers by the name the page gives them (production is "word-count-1", the load generator "load"). */
    private final Map<String, String> containers = new LinkedHashMap<>();

    private final Map<String, String> weirOutputs = new HashMap<>();
    private EmbeddedKafka kafka;
    private KafkaTestClient client;
    private boolean weirDefined;
    /** The input when production stopped: its last count of "a" is of these lines. */
    private List<String> linesAtPromotion;

    @BeforeAll
    static void buildImage() {
        image = ImageBuild.build();
    }

    @AfterEach
    void removeContainers() {
        for (String c : containers.values()) {
            podman.run(PODMAN_TIMEOUT, "rm", "-f", "-v", "-t", "0", c);
        }
        if (client != null) {
            client.close();
        }
        if (kafka != null) {
            kafka.close();
        }
    }

    @Test
    void theReplayWalkthroughOfTheDeployingPageRunsAsWrittenWithTheImage() throws Exception {
        List<String> block = walkthrough();
        kafka = EmbeddedKafka.start();
        client = KafkaTestClient.connect(kafka.bootstrapServers());
        client.createTopic("lines", PARTITIONS);
        client.createTopic("word-counts", PARTITIONS);
        long started = System.nanoTime();
        // The compose deployment, as `docker compose up` leaves it: production serving, the load feeding it.
        startContainer("word-count-1", List.of("-e", "WEIR_INSTANCE_ID=word-count-1"), List.of("serve", "word-count"));
        startContainer("load", List.of(), List.of("load", "word-count", "--rate", "50"));
        awaitLines(200);
        figure("deployment up and fed", started);

        for (String line : block) {
            long lineStarted = System.nanoTime();
            step(line);
            figure(line.length() > 70 ? line.substring(0, 70) + "..." : line, lineStarted);
        }
        assertThat(weirOutputs)
                .as("every weir command of the walk-through ran")
                .containsKeys("topology diff", "savepoint create", "savepoint restore", "describe", "diff");
        checkPromoted();
        figure("whole walk-through", started);
    }

    /** Runs one line of the walk-through, or its Podman equivalent. */
    private void step(String line) throws Exception {
        Matcher m;
        if (DEFINE_WEIR.matcher(line).matches()) {
            weirDefined = true;
        } else if ((m = WEIR.matcher(line)).matches()) {
            assertThat(weirDefined)
                    .as("the page defines weir before it uses it")
                    .isTrue();
            weir(m.group(1));
        } else if (LOAD_FOR.matcher(line).matches()) {
            m = LOAD_FOR.matcher(line);
            m.matches();
            podman.run(PODMAN_TIMEOUT, "start", containers.get("load")).requireSuccess("start load");
            long before = inputRecords();
            // The page sleeps; here the load runs until it has sent that many seconds' worth at its rate.
            awaitLines(before + 50L * Integer.parseInt(m.group(1)) / 2);
            stop("load", 45);
        } else if (STOP_LOAD.matcher(line).matches()) {
            stop("load", 45);
        } else if (START_LOAD.matcher(line).matches()) {
            podman.run(PODMAN_TIMEOUT, "start", containers.get("load")).requireSuccess("start load");
        } else if ((m = CREATE_TOPIC.matcher(line)).matches()) {
            client.createTopic(m.group(1), PARTITIONS);
        } else if ((m = RUN_SERVICE.matcher(line)).matches()) {
            List<String> env = new ArrayList<>();
            Matcher e = Pattern.compile("-e (\\S+=\\S+)").matcher(m.group(2));
            while (e.find()) {
                env.addAll(List.of("-e", e.group(1)));
            }
            startContainer(m.group(1), env, List.of(m.group(3).split(" ")));
        } else if (STOP_PRODUCTION.matcher(line).matches()) {
            awaitCaughtUp();
            linesAtPromotion = inputLines();
            stop("word-count-1", 45);
        } else if ((m = DOCKER_STOP.matcher(line)).matches()) {
            stop(m.group(2), Integer.parseInt(m.group(1)));
        } else {
            throw new AssertionError("the walk-through has a line this test does not know; teach it: " + line);
        }
    }

    /** A weir line: runs it in a container of the image, then checks what the page says it prints. */
    private void weir(String arguments) throws Exception {
        List<String> args = List.of(arguments.split(" "));
        String command = args.get(0).equals("topology") || args.get(0).equals("savepoint")
                ? args.get(0) + " " + args.get(1)
                : args.get(0);
        if (command.equals("savepoint restore")) {
            // The page says a restore without --map-store is refused and changes nothing.
            List<String> without = new ArrayList<>(args);
            int i = without.indexOf("--map-store");
            without.remove(i + 1);
            without.remove(i);
            Command.Result refused = cli(without);
            assertThat(refused.exitCode()).as(refused.output()).isEqualTo(1);
            assertThat(refused.output()).contains("store word-counts is in the savepoint but not in the topology");
        }
        if (command.equals("describe") || command.equals("diff")) {
            awaitCaughtUp();
        }
        Command.Result r = cli(args);
        System.out.println("$ weir " + arguments + "\n" + r.output() + "(exit " + r.exitCode() + ")");
        weirOutputs.put(command, r.output());
        switch (command) {
            case "topology diff" -> {
                assertThat(r.exitCode()).as(r.output()).isEqualTo(1);
                assertThat(r.output())
                        .contains(
                                "store word-counts: removed",
                                "store word-totals: added",
                                "Verdict: NEEDS_SAVEPOINT_OR_RESET",
                                "store word-counts was removed (or renamed): its state would be abandoned");
            }
            case "savepoint create" -> {
                assertThat(r.exitCode()).as(r.output()).isZero();
                assertThat(r.output())
                        .contains("cut complete: 12 tasks paused at a commit", "savepoint before-v2 complete");
            }
            case "savepoint restore" -> {
                assertThat(r.exitCode()).as(r.output()).isZero();
                assertThat(r.output()).contains("restored savepoint before-v2 of word-count into word-count-v2");
            }
            case "describe" -> {
                assertThat(r.exitCode()).as(r.output()).isZero();
                assertThat(r.output()).contains("Application word-count-v2", "Total lag: 0");
            }
            case "diff" -> {
                assertThat(r.exitCode())
                        .as("diff exits 1: the sides differ\n%s", r.output())
                        .isEqualTo(1);
                assertThat(r.output())
                        .containsPattern("changed\\s+0\\b")
                        .containsPattern("only-left\\s+1\\b")
                        .containsPattern("only-right\\s+0\\b")
                        .contains("The topics differ.");
                Map<String, Long> counts = WordCount.expectedCounts(inputLines());
                assertThat(r.output()).containsPattern("equal\\s+" + (counts.size() - 1) + "\\b");
            }
            default ->
                throw new AssertionError("the walk-through runs weir " + command + ", which this test does not"
                        + " check; teach it what the page says it prints");
        }
    }

    /**
     * Production and the shadow have read every line and written its counts: production's output is
     * v1's count of every line, the shadow's v2's (for the words v2 wrote since its start).
     */
    private void awaitCaughtUp() {
        Map<String, Long> v1 = WordCount.expectedCounts(inputLines());
        if (containers.containsKey("word-count-1") && running("word-count-1")) {
            client.readUntil("word-counts", r -> Records.lastLongPerKey(r).equals(v1), CATCH_UP);
        }
        if (containers.containsKey("word-count-v2-shadow") && running("word-count-v2-shadow")) {
            Map<String, Long> v2 = v2Counts(inputLines());
            client.readUntil(
                    "word-counts-shadow", r -> Records.lastLongPerKey(r).equals(v2), CATCH_UP);
        }
    }

    /** After the promotion: v2's counts of every line, and production's last count of "a". */
    private void checkPromoted() {
        assertThat(linesAtPromotion).as("the walk-through stops production").isNotNull();
        awaitLines(linesAtPromotion.size() + 100);
        stop("load", 45);
        Map<String, Long> expected = new HashMap<>(v2Counts(inputLines()));
        expected.put("a", WordCount.expectedCounts(linesAtPromotion).get("a"));
        client.readUntil("word-counts", r -> Records.lastLongPerKey(r).equals(expected), CATCH_UP);
        System.out.printf(
                "FIGURE promoted v2 counts %d words of %d lines exactly%n",
                expected.size(), inputLines().size());
    }

    private static Map<String, Long> v2Counts(List<String> lines) {
        Map<String, Long> counts = WordCount.expectedCounts(lines);
        counts.keySet().removeIf(w -> WordCountV2.words(w).isEmpty());
        return counts;
    }

    private Command.Result cli(List<String> args) {
        List<String> cmd = new ArrayList<>(List.of(
                "run",
                "--rm",
                "--name",
                run + "-cli-" + UUID.randomUUID().toString().substring(0, 6),
                "--entrypoint",
                "weir"));
        cmd.addAll(Podman.ULIMITS);
        cmd.addAll(List.of("--network", "host", "-e", "WEIR_BOOTSTRAP_SERVERS=" + kafka.bootstrapServers(), image));
        cmd.addAll(args);
        return podman.run(PODMAN_TIMEOUT, cmd.toArray(String[]::new));
    }

    /** {@code podman run -d} of the image as the page's container {@code name}, on the test's broker. */
    private void startContainer(String name, List<String> env, List<String> args) {
        String container = run + "-" + name;
        List<String> cmd = new ArrayList<>(List.of("run", "-d", "--name", container));
        cmd.addAll(Podman.ULIMITS);
        cmd.addAll(List.of(
                "--network",
                "host",
                "-e",
                "WEIR_BOOTSTRAP_SERVERS=" + kafka.bootstrapServers(),
                "-e",
                "WEIR_HTTP_PORT=" + freePort()));
        cmd.addAll(env);
        cmd.add(image);
        cmd.addAll(args);
        containers.put(name, container);
        podman.run(PODMAN_TIMEOUT, cmd.toArray(String[]::new)).requireSuccess("podman run " + args);
    }

    private void stop(String name, int graceSeconds) {
        String container = containers.get(name);
        assertThat(container)
                .as("the walk-through stops %s, which it started", name)
                .isNotNull();
        podman.run(Duration.ofSeconds(graceSeconds + 30), "stop", "-t", Integer.toString(graceSeconds), container)
                .requireSuccess("podman stop " + name);
    }

    private boolean running(String name) {
        return podman.run(PODMAN_TIMEOUT, "inspect", "--format", "{{.State.Running}}", containers.get(name))
                .output()
                .trim()
                .equals("true");
    }

    /** Waits until the input holds at least {@code count} committed lines. */
    private void awaitLines(long count) {
        client.readUntil("lines", r -> r.size() >= count, CATCH_UP);
    }

    private long inputRecords() {
        return inputLines().size();
    }

    private List<String> inputLines() {
        return client.readAllCommittedStrings("lines", CATCH_UP).stream()
                .map(ConsumerRecord::value)
                .toList();
    }

    /** The lines of the walk-through's block, without blank lines and comments. */
    private static List<String> walkthrough() {
        try {
            String page = Files.readString(ImageBuild.repositoryRoot().resolve("docs/deploying.md"));
            int marker = page.indexOf(MARKER);
            assertThat(marker)
                    .as("docs/deploying.md marks the walk-through with " + MARKER)
                    .isNotNegative();
            int open = page.indexOf("```bash\n", marker);
            int close = page.indexOf("\n```", open + 1);
            return page.substring(open + "```bash\n".length(), close)
                    .lines()
                    .map(String::strip)
                    .filter(l -> !l.isEmpty() && !l.startsWith("#"))
                    .toList();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static void figure(String what, long startedNanos) {
        System.out.printf("FIGURE %s: %.1f s%n", what, (System.nanoTime() - startedNanos) / 1e9);
    }

    private static int freePort() {
        try (ServerSocket s = new ServerSocket(0)) {
            return s.getLocalPort();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
