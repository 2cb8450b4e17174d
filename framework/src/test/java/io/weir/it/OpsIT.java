package io.weir.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.weir.Topology;
import io.weir.TopologyBuilder;
import io.weir.WeirApp;
import io.weir.common.KeyValue;
import io.weir.config.WeirConfig;
import io.weir.internal.config.InternalTopic;
import io.weir.internal.topology.TopologyDescription;
import io.weir.serde.Serdes;
import io.weir.testing.CountingApp;
import io.weir.testing.MeterCatalogue;
import io.weir.testing.PrometheusText;
import io.weir.testing.TestApps;
import io.weir.testkit.HttpProbe;
import io.weir.testkit.KafkaExtension;
import io.weir.testkit.Records;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** The HTTP endpoints of a running instance against a real broker: probes, metrics, topology, errors. */
class OpsIT {

    @RegisterExtension
    static final KafkaExtension KAFKA = KafkaExtension.sharedPerRun();

    private static final ObjectMapper JSON = new ObjectMapper();

    private static List<KeyValue<String, String>> distinctKeys(int n) {
        List<KeyValue<String, String>> records = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            records.add(KeyValue.of("k" + i, "v"));
        }
        return records;
    }

    private static JsonNode json(HttpProbe.Response r) throws Exception {
        assertThat(r.contentType()).startsWith("application/json");
        return JSON.readTree(r.body());
    }

    private static JsonNode restoringProblem(JsonNode readiness, String task) {
        for (JsonNode problem : readiness.get("problems")) {
            if (problem.get("kind").asText().equals("restoring")
                    && problem.has("store")
                    && problem.get("task").asText().equals(task)) {
                return problem;
            }
        }
        return null;
    }

    @Test
    void readinessIsUnavailableWhileAStoreRestoresAndReadyAfter() throws Exception {
        String input = KAFKA.uniqueTopic("ops-restore-in", 2);
        String output = KAFKA.uniqueTopic("ops-restore-out", 2);
        String appId = "ops-restore-" + input;
        int keys = 20_000;
        KAFKA.client().produceStrings(input, distinctKeys(keys));
        Topology topology = CountingApp.topology(input, output);
        try (WeirApp first = TestApps.start(
                topology, TestApps.config(KAFKA.bootstrapServers(), appId).build())) {
            KAFKA.client().readUntil(output, r -> Records.lastLongPerKey(r).size() == keys, Duration.ofMinutes(1));
        }
        // An open transaction on the changelog holds the restore of partition 0 until the test ends it
        // (a restore reads up to what read_committed readers see), so the 503 can be looked at.
        String changelog = appId + "-counts-changelog";
        Properties p = new Properties();
        p.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, KAFKA.bootstrapServers());
        p.put(ProducerConfig.TRANSACTIONAL_ID_CONFIG, "ops-holder-" + appId);
        p.put(ProducerConfig.TRANSACTION_TIMEOUT_CONFIG, 60_000);
        try (KafkaProducer<byte[], byte[]> holder =
                new KafkaProducer<>(p, new ByteArraySerializer(), new ByteArraySerializer())) {
            holder.initTransactions();
            holder.beginTransaction();
            holder.send(new ProducerRecord<>(changelog, 0, "held".getBytes(StandardCharsets.UTF_8), new byte[8]))
                    .get();

            List<WeirApp.State> states = new CopyOnWriteArrayList<>();
            WeirConfig fresh = TestApps.config(KAFKA.bootstrapServers(), appId) // a new state directory: full restore
                    .set("transaction.timeout.ms", 60_000)
                    .build();
            try (WeirApp second = WeirApp.create(topology, fresh)) {
                second.addStateListener((from, to) -> states.add(to));
                second.start();
                HttpProbe http = HttpProbe.localhost(second.httpPort().orElseThrow());
                await().atMost(Duration.ofSeconds(30)).until(() -> second.state() == WeirApp.State.RESTORING);
                // Partition 1 restores freely and may still be listed for a moment; partition 0's restore is
                // held, so its entry appears and stays until the transaction ends.
                AtomicReference<JsonNode> body = new AtomicReference<>();
                AtomicReference<JsonNode> restoring = new AtomicReference<>();
                await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> {
                    HttpProbe.Response ready = http.get("/health/ready");
                    assertThat(ready.status()).isEqualTo(503);
                    body.set(json(ready));
                    restoring.set(restoringProblem(body.get(), "0_0"));
                    assertThat(restoring.get())
                            .as("task 0_0 restoring in %s", body.get())
                            .isNotNull();
                });
                assertThat(body.get().get("status").asText()).isEqualTo("DOWN");
                assertThat(body.get().get("state").asText()).isEqualTo("RESTORING");
                assertThat(restoring.get().get("store").asText()).isEqualTo("counts");
                assertThat(restoring.get().get("remaining").asLong()).isPositive();
                assertThat(http.status("/health/live")).isEqualTo(200);

                holder.abortTransaction();
                await().atMost(Duration.ofSeconds(30)).until(() -> http.status("/health/ready") == 200);
                assertThat(second.state()).isEqualTo(WeirApp.State.RUNNING);
                assertThat(json(http.get("/health/ready")).get("problems")).isEmpty();
                // The state is set before its listeners are told: the RUNNING entry may follow a moment later.
                await().atMost(Duration.ofSeconds(10))
                        .untilAsserted(() -> assertThat(states)
                                .containsSubsequence(
                                        WeirApp.State.STARTING, WeirApp.State.RESTORING, WeirApp.State.RUNNING));
                double restored = second.meterRegistry().find("weir.restore.records").counters().stream()
                        .mapToDouble(c -> c.count())
                        .sum();
                assertThat(restored).isEqualTo(keys);
            }
        }
    }

    @Test
    void livenessAndReadinessTurnUnavailableAfterAFatalError() throws Exception {
        String input = KAFKA.uniqueTopic("ops-fatal-in", 1);
        String output = KAFKA.uniqueTopic("ops-fatal-out", 1);
        TopologyBuilder b = new TopologyBuilder();
        b.stream(Serdes.strings(), Serdes.strings(), input)
                .mapValues(v -> {
                    if (v.equals("boom")) {
                        throw new IllegalStateException("boom");
                    }
                    return v;
                })
                .to(output, Serdes.strings(), Serdes.strings());
        WeirConfig config = TestApps.config(KAFKA.bootstrapServers(), "ops-fatal-" + input)
                .set("error.mode", "fail")
                .build();
        try (WeirApp app = TestApps.start(b.build(), config)) {
            HttpProbe http = HttpProbe.localhost(app.httpPort().orElseThrow());
            await().atMost(Duration.ofSeconds(30)).until(() -> http.status("/health/ready") == 200);
            assertThat(http.status("/health/live")).isEqualTo(200);

            KAFKA.client().produceStrings(input, List.of(KeyValue.of("k", "boom")));
            await().atMost(Duration.ofSeconds(30)).until(() -> app.state() == WeirApp.State.FAILED);
            HttpProbe.Response live = http.get("/health/live");
            assertThat(live.status()).isEqualTo(503);
            JsonNode body = json(live);
            assertThat(body.get("state").asText()).isEqualTo("FAILED");
            assertThat(body.get("problems").get(0).get("kind").asText()).isEqualTo("failed");
            assertThat(body.get("problems").get(0).get("message").asText()).contains("boom");
            assertThat(http.status("/health/ready")).isEqualTo(503);
        }
    }

    @Test
    void metricsAreValidPrometheusTextWithTheNamedMetersAndLabels() throws Exception {
        String input = KAFKA.uniqueTopic("ops-metrics-in", 2);
        String output = KAFKA.uniqueTopic("ops-metrics-out", 2);
        KAFKA.client().produceStrings(input, distinctKeys(100));
        try (WeirApp app = TestApps.start(
                CountingApp.topology(input, output),
                TestApps.config(KAFKA.bootstrapServers(), "ops-metrics-" + input)
                        .build())) {
            KAFKA.client().readUntil(output, r -> Records.lastLongPerKey(r).size() == 100, Duration.ofMinutes(1));
            HttpProbe http = HttpProbe.localhost(app.httpPort().orElseThrow());
            // Lag is sampled about once a second, after the records were fetched. The instance's state (and so
            // weir_instance_ready and weir_instance_state) moves on the monitor's tick, which can come after
            // the output: wait for readiness too before reading the metrics once.
            await().atMost(Duration.ofSeconds(30))
                    .until(() -> lags(http).values().stream().allMatch(v -> v == 0.0)
                            && lags(http).size() == 2
                            && http.status("/health/ready") == 200);
            HttpProbe.Response r = http.get("/metrics");
            assertThat(r.status()).isEqualTo(200);
            assertThat(r.contentType()).startsWith("text/plain");
            List<PrometheusText.Sample> samples = PrometheusText.parse(r.body());
            Map<String, List<PrometheusText.Sample>> byName = new HashMap<>();
            samples.forEach(s ->
                    byName.computeIfAbsent(s.name(), n -> new ArrayList<>()).add(s));
            // What the instance registers and exports is the catalogue's, as the catalogue describes it.
            assertThat(MeterCatalogue.mismatches(app.meterRegistry())).isEmpty();
            assertThat(MeterCatalogue.unknownSeries(byName.keySet())).isEmpty();

            String thread =
                    app.config().applicationId() + "-" + app.instanceId().orElseThrow() + "-0";
            Map<String, String> threadLabels = Map.of(
                    "application",
                    app.config().applicationId(),
                    "instance",
                    app.instanceId().orElseThrow(),
                    "thread",
                    thread);
            assertThat(byName.get("weir_records_in_total")).singleElement().satisfies(s -> {
                assertThat(s.labels()).containsAllEntriesOf(threadLabels);
                assertThat(s.value()).isEqualTo(100.0);
            });
            for (String name : List.of(
                    "weir_records_out_total",
                    "weir_commit_latency_seconds_count",
                    "weir_time_since_last_commit_seconds",
                    "weir_restore_records_total",
                    "weir_rebalances_total",
                    "weir_records_dead_lettered_total")) {
                assertThat(byName.get(name))
                        .as(name)
                        .isNotEmpty()
                        .allSatisfy(s -> assertThat(s.labels()).containsAllEntriesOf(threadLabels));
            }
            // The thread keeps committing (with nothing to commit too): the gauge comes to show a commit
            // made after this mark. It counts from the thread's start before the first commit, so it
            // cannot show that without one; the clock is read before the request, so a reading below
            // the time since the mark dates the commit after it.
            long mark = System.nanoTime();
            await().atMost(Duration.ofSeconds(30)).until(() -> {
                double sinceMark = (System.nanoTime() - mark) / 1e9;
                List<PrometheusText.Sample> since = PrometheusText.parse(
                                http.get("/metrics").body())
                        .stream()
                        .filter(s -> s.name().equals("weir_time_since_last_commit_seconds"))
                        .toList();
                return !since.isEmpty() && since.stream().allMatch(s -> s.value() < sinceMark);
            });
            assertThat(byName.get("weir_consumer_lag_records")).hasSize(2).allSatisfy(s -> {
                assertThat(s.labels())
                        .containsAllEntriesOf(threadLabels)
                        .containsEntry("topic", input)
                        .containsKeys("task", "partition");
                assertThat(s.labels().get("task")).isEqualTo("0_" + s.labels().get("partition"));
            });
            assertThat(byName.get("weir_instance_ready"))
                    .singleElement()
                    .satisfies(s -> assertThat(s.value()).isEqualTo(1.0));
            // RocksDB's estimate over the two tasks' stores: near the 100 keys, not exact
            assertThat(byName.get("weir_store_entries")).singleElement().satisfies(s -> {
                assertThat(s.labels())
                        .containsEntry("store", "counts")
                        .containsEntry("application", app.config().applicationId());
                assertThat(s.value()).isBetween(50.0, 200.0);
            });
            assertThat(byName.get("weir_instance_state"))
                    .filteredOn(s -> s.value() == 1.0)
                    .singleElement()
                    .satisfies(s -> assertThat(s.labels()).containsEntry("state", "RUNNING"));
            assertThat(byName)
                    .containsKeys(
                            "weir_rocksdb_memory_usage_bytes",
                            "weir_rocksdb_memory_limit_bytes",
                            "weir_instance_stalled",
                            "jvm_memory_used_bytes",
                            "jvm_threads_live_threads",
                            "process_cpu_usage",
                            "process_uptime_seconds",
                            "jvm_gc_max_data_size_bytes");
            assertThat(byName.get("jvm_memory_used_bytes").get(0).labels())
                    .containsEntry("application", app.config().applicationId());
        }
    }

    private static Map<String, Double> lags(HttpProbe http) {
        Map<String, Double> lags = new HashMap<>();
        for (PrometheusText.Sample s : PrometheusText.parse(http.get("/metrics").body())) {
            if (s.name().equals("weir_consumer_lag_records")) {
                lags.put(s.labels().get("partition"), s.value());
            }
        }
        return lags;
    }

    @Test
    void topologyAndInfoDescribeWhatTheInstanceRuns() throws Exception {
        String input = KAFKA.uniqueTopic("ops-topo-in", 3);
        String output = KAFKA.uniqueTopic("ops-topo-out", 3);
        String appId = "ops-topo-" + input;
        TopologyBuilder b = new TopologyBuilder();
        b.stream(Serdes.strings(), Serdes.strings(), input)
                .groupBy((k, v) -> v, Serdes.strings(), Serdes.strings())
                .count("by-value")
                .toStream()
                .to(output, Serdes.strings(), Serdes.longs());
        try (WeirApp app = TestApps.start(
                b.build(), TestApps.config(KAFKA.bootstrapServers(), appId).build())) {
            HttpProbe http = HttpProbe.localhost(app.httpPort().orElseThrow());
            JsonNode topology = json(http.get("/topology"));
            assertThat(topology.get("applicationId").asText()).isEqualTo(appId);
            assertThat(topology.get("subtopologies")).hasSize(2);
            Set<String> sourceTopics = new HashSet<>();
            Set<String> sinkTopics = new HashSet<>();
            for (JsonNode st : topology.get("subtopologies")) {
                for (JsonNode node : st.get("graph")) {
                    if (node.get("type").asText().equals("source")) {
                        node.get("topics").forEach(t -> sourceTopics.add(t.asText()));
                    } else if (node.get("type").asText().equals("sink")) {
                        sinkTopics.add(node.get("topic").asText());
                    }
                }
            }
            String repartition = appId + "-by-value-repartition";
            assertThat(sourceTopics).containsExactlyInAnyOrder(input, repartition);
            assertThat(sinkTopics).containsExactlyInAnyOrder(output, repartition);
            assertThat(topology.get("stores")).singleElement().satisfies(s -> {
                assertThat(s.get("name").asText()).isEqualTo("by-value");
                assertThat(s.get("changelogTopic").asText()).isEqualTo(appId + "-by-value-changelog");
            });
            List<String> internal = new ArrayList<>();
            topology.get("internalTopics")
                    .forEach(t -> internal.add(t.get("name").asText()));
            assertThat(internal).containsExactlyInAnyOrder(repartition, appId + "-by-value-changelog");
            // One document: what the instance recorded in Kafka at start-up, which weir topology show prints.
            var recorded =
                    KAFKA.client().readAllCommittedStrings(InternalTopic.TOPOLOGY.of(appId), Duration.ofSeconds(20));
            assertThat(recorded).hasSize(1);
            assertThat(http.get("/topology").body()).isEqualTo(recorded.get(0).value());
            assertThat(TopologyDescription.parse(recorded.get(0).value()).toJson())
                    .isEqualTo(recorded.get(0).value());

            HttpProbe.Response mermaid = http.get("/topology?format=mermaid");
            assertThat(mermaid.status()).isEqualTo(200);
            assertThat(mermaid.body()).startsWith("graph").contains(input, output, "by-value");

            await().atMost(Duration.ofSeconds(30)).until(() -> http.status("/health/ready") == 200);
            JsonNode info = json(http.get("/info"));
            assertThat(info.get("applicationId").asText()).isEqualTo(appId);
            assertThat(info.get("instanceId").asText())
                    .isEqualTo(app.instanceId().orElseThrow());
            assertThat(info.get("guarantee").asText()).isEqualTo("exactly_once");
            assertThat(info.get("version").asText()).isNotBlank().isNotEqualTo("unknown");
            List<String> tasks = new ArrayList<>();
            info.get("tasksByThread").elements().forEachRemaining(list -> list.forEach(t -> tasks.add(t.asText())));
            assertThat(tasks).containsExactlyInAnyOrder("0_0", "0_1", "0_2", "1_0", "1_1", "1_2");
        }
    }

    @Test
    void badRequestsGetJsonErrors() throws Exception {
        String input = KAFKA.uniqueTopic("ops-errors-in", 1);
        try (WeirApp app = TestApps.start(
                CountingApp.topology(input, KAFKA.uniqueTopic("ops-errors-out", 1)),
                TestApps.config(KAFKA.bootstrapServers(), "ops-errors-" + input).build())) {
            HttpProbe http = HttpProbe.localhost(app.httpPort().orElseThrow());
            HttpProbe.Response notFound = http.get("/no/such/path");
            assertThat(notFound.status()).isEqualTo(404);
            assertThat(json(notFound).get("error").asText()).isEqualTo("not_found");
            HttpProbe.Response wrongMethod = http.post("/health/live");
            assertThat(wrongMethod.status()).isEqualTo(405);
            assertThat(json(wrongMethod).get("error").asText()).isEqualTo("method_not_allowed");
            HttpProbe.Response badFormat = http.get("/topology?format=svg");
            assertThat(badFormat.status()).isEqualTo(400);
            assertThat(json(badFormat).get("error").asText()).isEqualTo("bad_request");
            HttpProbe.Response leaveByGet = http.get("/admin/leave");
            assertThat(leaveByGet.status()).isEqualTo(405);
            assertThat(app.state()).isNotIn(WeirApp.State.STOPPING, WeirApp.State.STOPPED);
        }
    }
}
