package io.weir.deploy.image;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.weir.common.KeyValue;
import io.weir.deploy.kubernetes.helm.HookRunner;
import io.weir.deploy.kubernetes.helm.Release;
import io.weir.deploy.kubernetes.scenario.ChartOnPodman;
import io.weir.testkit.KafkaTestClient;
import io.weir.testkit.NestedMaven;
import io.weir.testkit.Podman;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.UUID;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.IsolationLevel;
import org.apache.kafka.common.serialization.LongDeserializer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.CleanupMode;
import org.junit.jupiter.api.io.TempDir;

/**
 * A savepoint upgrade run from the image users build from {@code starter/}, as the Helm chart runs
 * it: the chart's pre-upgrade hook runs {@code weir} from the new version's image (its describe init
 * container, then {@code weir upgrade}), so the starter's image must carry a working CLI.
 * <ol>
 *   <li>The starter copied to an empty directory and packaged there with plain Maven against this
 *       build's Weir ({@link NestedMaven}, as {@code StarterIT} builds it), its image built from its
 *       own Dockerfile ({@link ImageBuild#buildProject}): v1. Then the copy edited as a user changes
 *       state: the count store renamed ({@code ALERT_COUNT_STORE} "alert-counts" to "alert-totals",
 *       its output topic unchanged), packaged and built again: v2.</li>
 *   <li>The chart ({@code helm/weir}, values {@code image/starter-values.yaml}: two replicas, small
 *       JVMs) installed with v1 and its StatefulSet's pods run under Podman by the scenario's runner
 *       ({@link ChartOnPodman}: test broker reachable from pods, in-process API server over TLS,
 *       the runner's controller and kubelets).</li>
 *   <li>Readings fed until every sensor has alerts, and their counts committed.</li>
 *   <li>{@code helm upgrade} to v2 with {@code upgrade.mode=savepoint} and {@code
 *       upgrade.mapStores.alert-counts=alert-totals}: the pre-upgrade hooks run ({@link
 *       HookRunner}), their log says a savepoint was taken and restored, the release is applied and
 *       both pods come back on v2. More readings fed: every sensor's counts on {@code alert-counts}
 *       ({@code read_committed}) rise one by one across the upgrade to the number of its alerts in
 *       total (none lost, none counted twice), and every alert is on {@code alerts} once.</li>
 * </ol>
 * Prints {@code FIGURE} lines (nested builds, image builds, install, hook, upgrade) and the runner's
 * JSON events. Tagged {@code full}: nested builds, two images and pods under Podman, run by {@code
 * mvn verify -Pfull}; like the other image tests it fails, saying why, where Podman cannot be had
 * ({@link ImageBuild}). The temporary directory, with the builds' logs and the pods' manifests, is
 * kept when it fails.
 */
@Tag("full")
class StarterImageUpgradeIT {

    private static final String RELEASE = "weir-starter";
    private static final String NAMESPACE = "starter";
    private static final int REPLICAS = 2;
    private static final int PARTITIONS = 4;
    private static final String READINGS = "readings";
    private static final String ALERTS = "alerts";
    private static final String ALERT_COUNTS = "alert-counts";
    private static final String OLD_STORE = "alert-counts";
    private static final String NEW_STORE = "alert-totals";
    private static final int SENSORS = 8;
    private static final double THRESHOLD = 90.0; // AlertService.THRESHOLD: above it, a reading is an alert
    private static final String SERVICE_SOURCE = "src/main/java/com/example/service/AlertService.java";

    private static final Duration INSTALL_DEADLINE = Duration.ofMinutes(5);
    private static final Duration BUILD_DEADLINE = Duration.ofMinutes(5);
    private static final Duration READY_PER_POD = Duration.ofMinutes(4);
    private static final Duration COUNTS = Duration.ofMinutes(2);
    private static final Duration PODMAN_TIMEOUT = Duration.ofSeconds(60);
    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir(cleanup = CleanupMode.ON_SUCCESS)
    Path work;

    private final Podman podman = Podman.withRuncWhenPresent();
    private final String repository =
            "localhost/weir-starter-" + UUID.randomUUID().toString().substring(0, 8);
    private final List<String> images = new ArrayList<>();
    /** Alerts fed so far per sensor: what its count must be. */
    private final Map<String, Long> alertsPerSensor = new TreeMap<>();
    /** Every alert fed, as sensor@timestamp. */
    private final List<String> alertsFed = new ArrayList<>();

    private long nextTimestamp = 1_767_225_600_000L; // 2026-01-01T00:00:00Z

    @AfterEach
    void removeImages() {
        images.forEach(i -> podman.run(PODMAN_TIMEOUT, "rmi", "-f", i));
    }

    @Test
    void aSavepointUpgradeRunsFromTheStarterImageAndTheCountsContinueExactly() throws IOException {
        Path root = ImageBuild.repositoryRoot();
        buildImages(root);

        Files.createDirectories(work.resolve("pods"));
        try (ChartOnPodman chart = ChartOnPodman.start(root, work.resolve("pods"), RELEASE, NAMESPACE)) {
            KafkaTestClient kafka = chart.kafka();
            for (String topic : List.of(READINGS, ALERTS, ALERT_COUNTS)) {
                kafka.createTopic(topic, PARTITIONS);
            }

            long started = System.nanoTime();
            chart.install(render(chart, "v1", Map.of()), REPLICAS, READY_PER_POD);
            figure("helm install of the starter's image v1, " + REPLICAS + " pods ready", started);
            assertThat(chart.podImages()).containsOnly(repository + ":v1");

            feed(kafka, 120);
            started = System.nanoTime();
            awaitCommittedCounts(kafka);
            figure("counts of 120 readings committed", started);

            Release v2 = render(
                    chart, "v2", Map.of("upgrade.mode", "savepoint", "upgrade.mapStores." + OLD_STORE, NEW_STORE));
            assertThat(v2.hooks("pre-upgrade"))
                    .as("the chart's pre-upgrade hooks for upgrade.mode=savepoint")
                    .isNotEmpty();
            started = System.nanoTime();
            List<HookRunner.Outcome> ran = chart.runHooks(v2, "pre-upgrade");
            figure("pre-upgrade hook (describe init container, weir upgrade) in the starter's image v2", started);
            String hookLog = ran.stream().map(HookRunner.Outcome::logTail).collect(Collectors.joining("\n"));
            System.out.println("StarterImageUpgradeIT hook log (tail):\n" + hookLog);
            checkHookLog(hookLog);
            assertThat(chart.replicas())
                    .as("the hook left the StatefulSet at 0 for the new version")
                    .isZero();

            long upgraded = System.nanoTime();
            chart.applyUpgrade(v2);
            chart.awaitRollout(REPLICAS, READY_PER_POD);
            figure("helm upgrade applied to " + REPLICAS + " pods of v2 ready", upgraded);
            figure("savepoint upgrade, hook to pods ready", started);
            assertThat(chart.podImages()).containsOnly(repository + ":v2");

            feed(kafka, 120);
            started = System.nanoTime();
            awaitCommittedCounts(kafka);
            figure("counts of 120 more readings committed by v2", started);
            checkEveryCountAndAlertOnce(kafka);
        }
    }

    /** Step 1: Weir installed, the starter copied and packaged, image v1; the store renamed, image v2. */
    private void buildImages(Path root) throws IOException {
        Path project = NestedMaven.copyProject(root.resolve("starter"), work.resolve("my-service"));
        try (NestedMaven maven = NestedMaven.isolated(work)) {
            figure("nested install of Weir", maven.installWeir(root, INSTALL_DEADLINE));
            figure(
                    "mvn package of the copied starter (v1)",
                    maven.run("package-v1", project, BUILD_DEADLINE, "-q", "package", "-DskipTests"));
            buildImage(project, "v1");

            renameCountStore(project);
            figure(
                    "mvn package of the starter with the store renamed (v2)",
                    maven.run("package-v2", project, BUILD_DEADLINE, "-q", "package", "-DskipTests"));
            buildImage(project, "v2");
        }
    }

    private void buildImage(Path project, String tag) {
        assertThat(project.resolve("target/cli/weir-cli.jar"))
                .as("the CLI pom.xml copies for the image")
                .isRegularFile();
        long started = System.nanoTime();
        String image = repository + ":" + tag;
        ImageBuild.buildProject(project, image);
        images.add(image);
        figure("starter image " + tag + " built from its Dockerfile", started);
    }

    /** What a user edits for a change of state: the count store's name; the topics stay as they are. */
    private static void renameCountStore(Path project) throws IOException {
        Path source = project.resolve(SERVICE_SOURCE);
        String before = Files.readString(source);
        String declaration = "ALERT_COUNT_STORE = \"" + OLD_STORE + "\";";
        assertThat(before).as(SERVICE_SOURCE).contains(declaration);
        Files.writeString(source, before.replace(declaration, "ALERT_COUNT_STORE = \"" + NEW_STORE + "\";"));
    }

    private Release render(ChartOnPodman chart, String tag, Map<String, Object> extra) {
        Map<String, Object> sets = new LinkedHashMap<>();
        sets.put("image.repository", repository);
        sets.put("image.tag", tag);
        sets.putAll(extra);
        return chart.render(valuesFile(), sets);
    }

    private static Path valuesFile() {
        try {
            return Path.of(StarterImageUpgradeIT.class
                    .getResource("/image/starter-values.yaml")
                    .toURI());
        } catch (URISyntaxException e) {
            throw new IllegalStateException(e);
        }
    }

    /**
     * {@code count} readings, the sensors in turn; two of every three are above the threshold, so
     * every sensor gets alerts in each batch. Each reading has a timestamp of its own.
     */
    private void feed(KafkaTestClient kafka, int count) {
        List<KeyValue<String, String>> readings = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            String sensor = "sensor-" + (i % SENSORS);
            double temperature = i % 3 == 0 ? 85.5 : 91.0 + i % 7;
            long timestamp = nextTimestamp++;
            readings.add(KeyValue.of(
                    sensor,
                    String.format(
                            Locale.ROOT,
                            "{\"sensor\":\"%s\",\"temperature\":%.1f,\"timestamp\":%d}",
                            sensor,
                            temperature,
                            timestamp)));
            if (temperature > THRESHOLD) {
                alertsPerSensor.merge(sensor, 1L, Long::sum);
                alertsFed.add(sensor + "@" + timestamp);
            }
        }
        kafka.produceStrings(READINGS, readings);
    }

    /** Until the last committed count of every sensor is its number of alerts fed. */
    private void awaitCommittedCounts(KafkaTestClient kafka) {
        assertThat(alertsPerSensor).hasSize(SENSORS);
        kafka.readUntil(
                ALERT_COUNTS,
                new StringDeserializer(),
                new LongDeserializer(),
                IsolationLevel.READ_COMMITTED,
                records -> lastPerKey(records).equals(alertsPerSensor),
                COUNTS);
    }

    /**
     * The hook took a savepoint of v1 and restored it into v2's topology: one entry per sensor, the
     * counts, written into the renamed store's changelog.
     */
    private static void checkHookLog(String log) {
        assertThat(log).as("the hook's log").contains("state change: taking savepoint pre-upgrade-r1-");
        Matcher taken = Pattern.compile("savepoint (pre-upgrade-r1-\\S+) complete: \\d+ tasks, (\\d+) entries")
                .matcher(log);
        assertThat(taken.find()).as("the savepoint's line in the hook's log").isTrue();
        assertThat(Integer.parseInt(taken.group(2)))
                .as("entries in the savepoint: a count per sensor")
                .isEqualTo(SENSORS);
        assertThat(log)
                .as("the hook's log")
                .contains("wrote {" + NEW_STORE + "=" + SENSORS + "} entries")
                .contains("restored savepoint " + taken.group(1) + " into the new topology");
    }

    /**
     * The whole of both output topics after the last batch, {@code read_committed}: each sensor's
     * counts only rise, across the upgrade too (counts restarted from zero would fall back, alerts
     * counted twice would repeat a count or overshoot), and end at its number of alerts in total;
     * every alert is there exactly once.
     */
    private void checkEveryCountAndAlertOnce(KafkaTestClient kafka) {
        List<ConsumerRecord<String, Long>> counts =
                kafka.readAllCommitted(ALERT_COUNTS, new StringDeserializer(), new LongDeserializer(), COUNTS);
        Map<String, List<Long>> perSensor = new TreeMap<>();
        counts.forEach(
                r -> perSensor.computeIfAbsent(r.key(), k -> new ArrayList<>()).add(r.value()));
        perSensor.forEach((sensor, values) -> {
            for (int i = 1; i < values.size(); i++) {
                assertThat(values.get(i))
                        .as("count %d of %s after %s: %s", i, sensor, values.get(i - 1), values)
                        .isGreaterThan(values.get(i - 1));
            }
        });
        assertThat(lastPerKey(counts)).as("every sensor's final count").isEqualTo(alertsPerSensor);

        List<String> alerts = kafka.readAllCommittedStrings(ALERTS, COUNTS).stream()
                .map(r -> r.key() + "@" + json(r.value()).path("timestamp").asLong())
                .toList();
        assertThat(alerts)
                .as("every alert once")
                .hasSameSizeAs(alertsFed)
                .containsExactlyInAnyOrderElementsOf(alertsFed);
    }

    private static <V> Map<String, V> lastPerKey(List<ConsumerRecord<String, V>> records) {
        Map<String, V> last = new TreeMap<>();
        records.forEach(r -> last.put(r.key(), r.value()));
        return last;
    }

    private static JsonNode json(String text) {
        try {
            return JSON.readTree(text);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static void figure(String what, Duration took) {
        System.out.printf(Locale.ROOT, "FIGURE StarterImageUpgradeIT %s: %.1f s%n", what, took.toMillis() / 1e3);
    }

    private static void figure(String what, long startedNanos) {
        figure(what, Duration.ofNanos(System.nanoTime() - startedNanos));
    }
}
