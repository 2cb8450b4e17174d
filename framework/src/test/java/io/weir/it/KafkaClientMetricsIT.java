package io.weir.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.weir.WeirApp;
import io.weir.common.KeyValue;
import io.weir.testing.CountingApp;
import io.weir.testing.PrometheusText;
import io.weir.testing.TestApps;
import io.weir.testkit.HttpProbe;
import io.weir.testkit.KafkaExtension;
import io.weir.testkit.Records;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.MatchResult;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The Kafka clients' own metrics of a running instance, against a real broker: on {@code /metrics}
 * with the {@code thread} and {@code role} of each client (the stream threads' consumers and
 * transactional producers, the admin client, the instance's other clients), and gone from the
 * registries (Weir's and the application's own) once the application is closed.
 */
class KafkaClientMetricsIT {

    @RegisterExtension
    static final KafkaExtension KAFKA = KafkaExtension.sharedPerRun();

    private static final Duration WAIT = Duration.ofSeconds(60);
    /** One series of each family, as Prometheus prints it, for the docs and for whoever reads a failure. */
    private static final Path EXAMPLES = Path.of("target", "kafka-client-series.txt");

    private static final Path OPERATING = Path.of("../docs/operating.md");
    /** Where Kafka client series are named for operators: their guide and the dashboards (chart and compose). */
    private static final List<Path> NAMING = List.of(
            OPERATING,
            Path.of("../helm/weir/files/dashboards/weir.json"),
            Path.of("../deploy/compose/grafana/dashboards/weir.json"));

    private static final Pattern KAFKA_NAME =
            Pattern.compile("(?<![A-Za-z0-9_])kafka_[a-z0-9_]*[a-z0-9](?![a-z0-9_*])");
    private static final Pattern CODE = Pattern.compile("`([^`]+)`");

    @Test
    void clientMetricsCarryThreadAndRoleAndLeaveWithTheApplication() throws IOException {
        String input = KAFKA.uniqueTopic("client-metrics-in", 2);
        String output = KAFKA.uniqueTopic("client-metrics-out", 2);
        KAFKA.client().produceStrings(input, keys(100));
        MeterRegistry own = new SimpleMeterRegistry();
        WeirApp app = WeirApp.create(
                        CountingApp.topology(input, output),
                        TestApps.config(KAFKA.bootstrapServers(), "client-metrics-" + input)
                                .set("num.stream.threads", 2)
                                .build(),
                        own)
                .start();
        try {
            KAFKA.client().readUntil(output, r -> Records.lastLongPerKey(r).size() == 100, WAIT);
            HttpProbe http = HttpProbe.localhost(app.httpPort().orElseThrow());
            String prefix =
                    app.config().applicationId() + "-" + app.instanceId().orElseThrow() + "-";
            Set<String> threads = Set.of(prefix + "0", prefix + "1");

            // Per-partition series come with the binding's refresh after the assignment; the
            // transaction times once a commit was timed.
            await("client series of both threads").atMost(WAIT).until(() -> {
                List<PrometheusText.Sample> s = scrape(http);
                return threadsWith(s, "kafka_consumer_fetch_manager_records_lag_max", "consumer", "partition")
                                .equals(threads)
                        && threadsWith(s, "kafka_consumer_fetch_manager_fetch_latency_avg", "consumer", null)
                                .equals(threads)
                        && threadsWith(s, "kafka_producer_request_latency_avg", "producer", null)
                                .equals(threads)
                        && s.stream()
                                .anyMatch(x ->
                                        x.name().equals("kafka_producer_txn_commit_time_ns_total") && x.value() > 0);
            });
            String text = http.get("/metrics").body();
            List<PrometheusText.Sample> samples = PrometheusText.parse(text);
            Map<String, String> instanceLabels = Map.of(
                    "application",
                    app.config().applicationId(),
                    "instance",
                    app.instanceId().orElseThrow());
            List<PrometheusText.Sample> kafka =
                    samples.stream().filter(s -> s.name().startsWith("kafka_")).toList();
            assertThat(kafka)
                    .allSatisfy(s -> assertThat(s.labels())
                            .containsAllEntriesOf(instanceLabels)
                            .containsKeys("thread", "role", "client_id", "kafka_version"));
            assertThat(kafka)
                    .filteredOn(s -> s.name().equals("kafka_consumer_fetch_manager_records_lag_max")
                            && s.labels().get("role").equals("consumer"))
                    .allSatisfy(s -> assertThat(s.labels()).containsEntry("topic", input));
            for (String txn : List.of(
                    "kafka_producer_txn_init_time_ns_total",
                    "kafka_producer_txn_begin_time_ns_total",
                    "kafka_producer_txn_commit_time_ns_total",
                    "kafka_producer_txn_abort_time_ns_total")) {
                assertThat(threadsWith(kafka, txn, "producer", null)).as(txn).isEqualTo(threads);
            }
            assertThat(kafka)
                    .filteredOn(s -> s.labels().get("role").equals("admin"))
                    .extracting(PrometheusText.Sample::name)
                    .contains("kafka_admin_client_request_total", "kafka_admin_client_node_request_latency_avg");
            assertThat(kafka)
                    .filteredOn(s -> !s.labels().get("role").equals("consumer")
                            && !s.labels().get("role").equals("producer"))
                    .allSatisfy(s -> assertThat(s.labels()).containsEntry("thread", ""));
            Set<String> roles = kafka.stream().map(s -> s.labels().get("role")).collect(Collectors.toSet());
            assertThat(roles).contains("consumer", "producer", "admin", "liveness-consumer", "liveness-producer");
            writeExamples(text);
            Set<String> exported = new TreeSet<>();
            kafka.forEach(x -> {
                exported.add(x.name());
                exported.addAll(x.labels().keySet());
            });
            for (Path named : NAMING) {
                assertThat(kafkaNames(Files.readString(named)))
                        .as("kafka_ series and labels %s names that the instance does not export", named)
                        .isSubsetOf(exported);
            }
            assertThat(roles).as("roles docs/operating.md lists").isSubsetOf(documentedRoles());
            assertThat(kafkaMeters(own))
                    .as("the application's own registry has them too")
                    .isNotEmpty();
        } finally {
            app.close(Duration.ofSeconds(30));
        }
        assertThat(kafkaMeters(app.meterRegistry()))
                .as("Kafka client meters after the close")
                .isEmpty();
        assertThat(kafkaMeters(own))
                .as("Kafka client meters in the application's registry after the close")
                .isEmpty();
        assertThat(Thread.getAllStackTraces().keySet())
                .extracting(Thread::getName)
                .noneMatch(n -> n.endsWith("-client-metrics") && n.contains("client-metrics-" + input));
    }

    @Test
    void theSettingTurnsThemOff() {
        String input = KAFKA.uniqueTopic("client-metrics-off-in", 1);
        String output = KAFKA.uniqueTopic("client-metrics-off-out", 1);
        KAFKA.client().produceStrings(input, keys(10));
        try (WeirApp app = TestApps.start(
                CountingApp.topology(input, output),
                TestApps.config(KAFKA.bootstrapServers(), "client-metrics-off-" + input)
                        .set("metrics.kafka.clients.enabled", false)
                        .build())) {
            KAFKA.client().readUntil(output, r -> Records.lastLongPerKey(r).size() == 10, WAIT);
            HttpProbe http = HttpProbe.localhost(app.httpPort().orElseThrow());
            List<PrometheusText.Sample> samples = scrape(http);
            assertThat(samples).extracting(PrometheusText.Sample::name).contains("weir_records_in_total");
            assertThat(samples).extracting(PrometheusText.Sample::name).noneMatch(n -> n.startsWith("kafka_"));
        }
    }

    private static List<PrometheusText.Sample> scrape(HttpProbe http) {
        return PrometheusText.parse(http.get("/metrics").body());
    }

    /** The {@code thread} labels of the series {@code name} of clients in {@code role}, with {@code label} if not null. */
    private static Set<String> threadsWith(
            List<PrometheusText.Sample> samples, String name, String role, String label) {
        return samples.stream()
                .filter(s -> s.name().equals(name) && role.equals(s.labels().get("role")))
                .filter(s -> label == null || s.labels().containsKey(label))
                .map(s -> s.labels().get("thread"))
                .collect(Collectors.toSet());
    }

    private static List<Meter> kafkaMeters(MeterRegistry registry) {
        return registry.getMeters().stream()
                .filter(m -> m.getId().getName().startsWith("kafka."))
                .toList();
    }

    /** The first series of each Kafka client family, as /metrics printed it, written to {@link #EXAMPLES}. */
    private static void writeExamples(String metrics) throws IOException {
        Map<String, String> first = new TreeMap<>();
        for (String line : metrics.split("\n")) {
            if (line.startsWith("kafka_")) {
                first.putIfAbsent(line.substring(0, line.indexOf('{')), line);
            }
        }
        Files.createDirectories(EXAMPLES.getParent());
        Files.write(EXAMPLES, first.values());
    }

    /** The full {@code kafka_*} names in {@code text}: not a family's prefix ({@code kafka_producer_*}). */
    private static Set<String> kafkaNames(String text) {
        return KAFKA_NAME
                .matcher(text)
                .results()
                .map(MatchResult::group)
                .collect(Collectors.toCollection(TreeSet::new));
    }

    /** The roles of the table in docs/operating.md's section on Kafka client metrics. */
    private static Set<String> documentedRoles() throws IOException {
        Set<String> roles = new TreeSet<>();
        for (String line : Files.readString(OPERATING).split("\n")) {
            if (line.startsWith("| `") && (line.contains("| empty |") || line.contains("| the stream thread |"))) {
                Matcher m = CODE.matcher(line.substring(0, line.indexOf(" | ")));
                while (m.find()) {
                    roles.add(m.group(1));
                }
            }
        }
        return roles;
    }

    private static List<KeyValue<String, String>> keys(int n) {
        List<KeyValue<String, String>> records = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            records.add(KeyValue.of("k" + i, "v"));
        }
        return records;
    }
}
