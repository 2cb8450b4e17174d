package io.weir.deploy.compose;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.weir.WeirApp;
import io.weir.common.KeyValue;
import io.weir.samples.common.SampleConfigs;
import io.weir.samples.wordcount.WordCount;
import io.weir.testkit.HttpProbe;
import io.weir.testkit.KafkaExtension;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * Every metric the Grafana dashboard queries is one a running Weir instance really exposes, with
 * the labels the queries group by: the word-count topology of the compose file runs in this JVM
 * against a testkit broker, and its {@code /metrics} is scraped in two situations, processing and
 * restoring, because {@code weir_restore_remaining_records} exists only while a store restores.
 * The restore is held open on purpose by a transaction left open on the store's changelog (Weir
 * waits for a transaction it sees unresolved, up to the transaction timeout), so the scrape cannot
 * miss it however fast the restore would be.
 */
class DashboardMetricsIT {

    @RegisterExtension
    static final KafkaExtension KAFKA = KafkaExtension.perClass();

    /** Series Prometheus adds itself, not scraped from Weir (`up`: was the target reachable). */
    private static final Set<String> FROM_PROMETHEUS = Set.of("up");

    private static final Pattern SERIES = Pattern.compile("^([a-zA-Z_:][a-zA-Z0-9_:]*)(\\{([^}]*)})?\\s");
    private static final Pattern LABEL = Pattern.compile("([a-zA-Z_][a-zA-Z0-9_]*)=\"");
    private static final Duration WAIT = Duration.ofSeconds(60);

    @TempDir
    Path stateDir;

    @Test
    void dashboardQueriesOnlyMetricsAndLabelsWeirExposes() throws Exception {
        String input = KAFKA.uniqueTopic("lines", 2);
        String output = KAFKA.uniqueTopic("word-counts", 2);
        String applicationId = "dashboard-" + input;
        KAFKA.client()
                .produceStrings(
                        input,
                        List.of(KeyValue.of("1", "the quick brown fox"), KeyValue.of("2", "jumps over the lazy dog")));

        Map<String, Set<String>> exposed = new HashMap<>();
        String changelog;
        WeirApp processing = start(applicationId, input, output);
        try {
            HttpProbe http = HttpProbe.localhost(processing.httpPort().orElseThrow());
            await("records counted and committed to " + output)
                    .atMost(WAIT)
                    .until(() -> sum(http.get("/metrics").body(), "weir_records_out_total") > 0);
            scrape(http, exposed);
            changelog = changelogOf(http);
        } finally {
            processing.close(Duration.ofSeconds(30));
        }

        try (KafkaProducer<byte[], byte[]> open = openTransaction(changelog)) {
            WeirApp restoring = start(applicationId, input, output);
            try {
                HttpProbe http = HttpProbe.localhost(restoring.httpPort().orElseThrow());
                await("the store restoring from " + changelog)
                        .atMost(WAIT)
                        .until(() -> http.get("/metrics").body().contains("weir_restore_remaining_records{"));
                scrape(http, exposed);
            } finally {
                open.abortTransaction();
                restoring.close(Duration.ofSeconds(30));
            }
        }

        DashboardQueries queries = DashboardQueries.of(RepositoryFiles.json(GrafanaProvisioningTest.DASHBOARD));
        Set<String> unknown = new HashSet<>(queries.metricNames());
        unknown.removeAll(exposed.keySet());
        unknown.removeAll(FROM_PROMETHEUS);
        assertThat(unknown)
                .as("metrics the dashboard queries that Weir does not expose (exposed: %s)", exposed.keySet())
                .isEmpty();

        for (String expr : queries.exprs()) {
            Set<String> labels = new HashSet<>();
            PromQl.metricNames(expr).forEach(name -> labels.addAll(exposed.getOrDefault(name, Set.of())));
            if (!PromQl.metricNames(expr).stream().allMatch(FROM_PROMETHEUS::contains)) {
                assertThat(labels)
                        .as("labels of the metrics in %s", expr)
                        .contains("application")
                        .containsAll(PromQl.groupingLabels(expr));
            }
        }
    }

    private WeirApp start(String applicationId, String input, String output) {
        return WeirApp.create(
                        WordCount.topology(input, output),
                        SampleConfigs.exactlyOnce(applicationId, KAFKA.bootstrapServers(), stateDir)
                                .instanceId("dashboard-1")
                                .set("http.port", 0)
                                .build())
                .start();
    }

    /** Adds every series name on /metrics, with the label names seen on it. */
    private static void scrape(HttpProbe http, Map<String, Set<String>> exposed) {
        for (String line : http.get("/metrics").body().split("\n")) {
            Matcher m = SERIES.matcher(line);
            if (!line.startsWith("#") && m.find()) {
                Set<String> labels = exposed.computeIfAbsent(m.group(1), k -> new HashSet<>());
                if (m.group(3) != null) {
                    Matcher l = LABEL.matcher(m.group(3));
                    while (l.find()) {
                        labels.add(l.group(1));
                    }
                }
            }
        }
    }

    private static double sum(String metrics, String name) {
        double total = 0;
        for (String line : metrics.split("\n")) {
            if (line.startsWith(name + "{") || line.startsWith(name + " ")) {
                total += Double.parseDouble(line.substring(line.lastIndexOf(' ') + 1));
            }
        }
        return total;
    }

    /** The changelog topic of the word-count store, as /topology names it. */
    private static String changelogOf(HttpProbe http) throws Exception {
        JsonNode topology = new ObjectMapper().readTree(http.get("/topology").body());
        List<String> changelogs = new ArrayList<>();
        topology.findValues("changelogTopic").forEach(t -> changelogs.add(t.asText()));
        assertThat(changelogs).as("changelog topics in /topology").hasSize(1);
        return changelogs.get(0);
    }

    /** A producer with a transaction open on every partition of {@code topic}, not committed. */
    private static KafkaProducer<byte[], byte[]> openTransaction(String topic) {
        Properties props = new Properties();
        props.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, KAFKA.bootstrapServers());
        props.put(ProducerConfig.TRANSACTIONAL_ID_CONFIG, "dashboard-it-open-" + topic);
        props.put(ProducerConfig.TRANSACTION_TIMEOUT_CONFIG, 120_000);
        KafkaProducer<byte[], byte[]> producer =
                new KafkaProducer<>(props, new ByteArraySerializer(), new ByteArraySerializer());
        producer.initTransactions();
        producer.beginTransaction();
        int partitions = producer.partitionsFor(topic).size();
        for (int p = 0; p < partitions; p++) {
            producer.send(new ProducerRecord<>(topic, p, "held".getBytes(), "open".getBytes()));
        }
        producer.flush();
        return producer;
    }
}
