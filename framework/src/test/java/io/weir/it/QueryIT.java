package io.weir.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.weir.Topology;
import io.weir.TopologyBuilder;
import io.weir.WeirApp;
import io.weir.common.KeyValue;
import io.weir.config.WeirConfig;
import io.weir.dsl.SessionWindows;
import io.weir.dsl.TimeWindows;
import io.weir.query.QueryAnswer;
import io.weir.query.QueryException;
import io.weir.query.StoreQueryClient;
import io.weir.serde.Serdes;
import io.weir.testing.TestApps;
import io.weir.testing.TlsFiles;
import io.weir.testkit.KafkaExtension;
import io.weir.testkit.Records;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * Interactive queries over HTTP against a real broker, three instances in this JVM with one
 * standby each: every key of a key-value, a window and a session store, asked of every instance,
 * answers the committed value, read by the instance that runs the key's task (forwarded there when
 * asked elsewhere); wrong stores, kinds and keys get JSON errors.
 */
class QueryIT {

    @RegisterExtension
    static final KafkaExtension KAFKA = KafkaExtension.sharedPerRun();

    private static final int PARTITIONS = 6;
    private static final int KEYS = 120;
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final HttpClient HTTP = HttpClient.newHttpClient();

    private static Topology counting(String input, String output) {
        TopologyBuilder b = new TopologyBuilder();
        var stream = b.stream(Serdes.strings(), Serdes.strings(), input);
        stream.groupByKey().count("counts").toStream().to(output, Serdes.strings(), Serdes.longs());
        stream.groupByKey()
                .windowedBy(TimeWindows.of(Duration.ofHours(1)))
                .count("hourly")
                .map((w, c) -> KeyValue.of(w.key(), c))
                .to(output + "-hourly", Serdes.strings(), Serdes.longs());
        stream.groupByKey()
                .windowedBy(SessionWindows.withInactivityGap(Duration.ofHours(1)))
                .count("visits")
                .map((w, c) -> KeyValue.of(w.key(), c == null ? -1L : c))
                .to(output + "-visits", Serdes.strings(), Serdes.longs());
        return b.build();
    }

    /** Key {@code i} occurs {@code i % 4 + 1} times; one key has a slash, a space and a plus. */
    private static String key(int i) {
        return i == 7 ? "user/7 x+y" : "k" + i;
    }

    @Test
    void everyKeyAskedOfEveryInstanceAnswersTheCommittedValue() throws Exception {
        String input = KAFKA.uniqueTopic("query-in", PARTITIONS);
        String output = KAFKA.uniqueTopic("query-out", PARTITIONS);
        KAFKA.createTopic(output + "-hourly", PARTITIONS, Map.of());
        KAFKA.createTopic(output + "-visits", PARTITIONS, Map.of());
        String appId = "query-" + input;
        Map<String, Long> expected = new TreeMap<>();
        List<KeyValue<String, String>> records = new ArrayList<>();
        for (int round = 0; round < 4; round++) {
            for (int i = 0; i < KEYS; i++) {
                if (round <= i % 4) {
                    records.add(KeyValue.of(key(i), "v"));
                    expected.merge(key(i), 1L, Long::sum);
                }
            }
        }
        KAFKA.client().produceStrings(input, records);
        Topology topology = counting(input, output);
        try (WeirApp a = TestApps.start(topology, config(appId, "a"));
                WeirApp b = TestApps.start(topology, config(appId, "b"));
                WeirApp c = TestApps.start(topology, config(appId, "c"))) {
            List<WeirApp> apps = List.of(a, b, c);
            KAFKA.client().readUntil(output, r -> Records.lastLongPerKey(r).equals(expected), Duration.ofMinutes(2));
            await().atMost(Duration.ofMinutes(1))
                    .until(() -> apps.stream().allMatch(x -> x.state() == WeirApp.State.RUNNING));
            // Once the group has settled, every key through every instance.
            await().atMost(Duration.ofMinutes(1))
                    .pollInterval(Duration.ofMillis(500))
                    .untilAsserted(() -> {
                        Set<String> answeredBy = new HashSet<>();
                        for (WeirApp app : apps) {
                            for (Map.Entry<String, Long> e : expected.entrySet()) {
                                JsonNode value = get(app, "/stores/counts/keys/" + encode(e.getKey()), 200);
                                assertThat(value.get("value").asLong())
                                        .as(
                                                "count of %s via %s",
                                                e.getKey(), app.instanceId().orElseThrow())
                                        .isEqualTo(e.getValue());
                                assertThat(value.get("key").asText()).isEqualTo(e.getKey());
                                answeredBy.add(value.get("instance").asText());

                                JsonNode windows =
                                        get(app, "/stores/hourly/keys/" + encode(e.getKey()) + "/windows", 200);
                                long sum = 0;
                                for (JsonNode w : windows.get("windows")) {
                                    assertThat(w.get("end").asLong()
                                                    - w.get("start").asLong())
                                            .isEqualTo(3_600_000L);
                                    sum += w.get("value").asLong();
                                }
                                assertThat(sum)
                                        .as("hourly counts of %s", e.getKey())
                                        .isEqualTo(e.getValue());

                                JsonNode sessions =
                                        get(app, "/stores/visits/keys/" + encode(e.getKey()) + "/sessions", 200);
                                assertThat(sessions.get("sessions")).hasSize(1);
                                assertThat(sessions.get("sessions")
                                                .get(0)
                                                .get("value")
                                                .asLong())
                                        .isEqualTo(e.getValue());
                            }
                        }
                        assertThat(answeredBy)
                                .as("instances that read the state")
                                .containsExactlyInAnyOrder("a", "b", "c");
                    });

            // Every instance knows where each key lives, and the instance that answered is that one.
            for (int i = 0; i < 20; i++) {
                String k = key(i);
                var owners = a.keyOwners("counts", k).orElseThrow();
                assertThat(b.keyOwners("counts", k)).contains(owners);
                String answeredBy = get(c, "/stores/counts/keys/" + encode(k), 200)
                        .get("instance")
                        .asText();
                assertThat(owners.active().orElseThrow().id()).isEqualTo(answeredBy);
                assertThat(owners.active().orElseThrow().endpoint())
                        .isEqualTo("http://127.0.0.1:"
                                + apps.stream()
                                        .filter(x ->
                                                x.instanceId().orElseThrow().equals(answeredBy))
                                        .findFirst()
                                        .orElseThrow()
                                        .httpPort()
                                        .orElseThrow());
                assertThat(owners.standbys()).isNotEmpty().noneMatch(s -> s.id().equals(answeredBy));
            }
            assertThatThrownBy(() -> a.keyOwners("nope", "k1"))
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("counts");

            // Scans over every task, page by page, through each instance.
            for (WeirApp app : apps) {
                assertThat(scanAll(app, "limit=7"))
                        .as("every entry, pages of 7")
                        .isEqualTo(expected);
                Map<String, Long> k1 = new TreeMap<>(expected);
                k1.keySet().removeIf(k -> !k.startsWith("k1"));
                assertThat(scanAll(app, "prefix=k1&limit=5")).as("prefix k1").isEqualTo(k1);
                Map<String, Long> between = new TreeMap<>(expected);
                between.keySet().removeIf(k -> k.compareTo("k2") < 0 || k.compareTo("k3") > 0);
                assertThat(scanAll(app, "from=k2&to=k3&limit=50"))
                        .as("k2 to k3")
                        .isEqualTo(between);
            }
            assertThat(get(a, "/stores/hourly/keys", 400).get("message").asText())
                    .contains("only key-value stores");
            assertThat(get(a, "/stores/counts/keys?after=%21%21", 400)
                            .get("message")
                            .asText())
                    .contains("cursor");
            assertThat(get(a, "/stores/counts/keys?limit=0", 400).get("message").asText())
                    .contains("limit");

            // A page of windows: limit 1 gives one window and where the next page starts, if any.
            JsonNode page = get(a, "/stores/hourly/keys/k3/windows?limit=1", 200);
            assertThat(page.get("windows")).hasSize(1);
            assertThat(page.has("next_from")).isTrue();

            // Operators see what the queries did.
            assertThat(a.meterRegistry()
                            .find("weir.query.requests")
                            .tag("outcome", "local")
                            .timer()
                            .count())
                    .isPositive();
            assertThat(a.meterRegistry()
                            .find("weir.query.requests")
                            .tag("outcome", "forwarded")
                            .tag("kind", "key")
                            .timer()
                            .count())
                    .isPositive();

            // Errors: JSON with a stable word.
            assertThat(get(a, "/stores/nope/keys/k1", 404).get("error").asText())
                    .isEqualTo("unknown_store");
            assertThat(get(a, "/stores/counts/keys/absent-key", 404)
                            .get("error")
                            .asText())
                    .isEqualTo("no_such_key");
            assertThat(get(a, "/stores/counts/keys/k1/windows", 400)
                            .get("message")
                            .asText())
                    .contains("key-value store")
                    .contains("/stores/counts/keys/{key}");
            assertThat(get(a, "/stores/hourly/keys/k1/windows?from=yesterday", 400)
                            .get("message")
                            .asText())
                    .contains("from must be epoch milliseconds");
            assertThat(get(a, "/stores/counts/keys/k1?keyEncoding=hex", 400)
                            .get("message")
                            .asText())
                    .contains("keyEncoding");
            assertThat(get(
                                    a,
                                    "/stores/counts/keys/"
                                            + java.util.Base64.getUrlEncoder()
                                                    .encodeToString("k5".getBytes(StandardCharsets.UTF_8))
                                            + "?keyEncoding=base64",
                                    200)
                            .get("value")
                            .asLong())
                    .isEqualTo(expected.get("k5"));
            assertThat(get(a, "/stores/counts", 404).get("message").asText()).contains("/stores/{store}/keys/{key}");
        }
    }

    @Test
    void queriesAreForwardedOverTlsWithTheTokenOnTheAdminPort(@TempDir Path dir) throws Exception {
        String input = KAFKA.uniqueTopic("squery-in", PARTITIONS);
        String output = KAFKA.uniqueTopic("squery-out", PARTITIONS);
        KAFKA.createTopic(output + "-hourly", PARTITIONS, Map.of());
        KAFKA.createTopic(output + "-visits", PARTITIONS, Map.of());
        Map<String, Long> expected = new TreeMap<>();
        List<KeyValue<String, String>> records = new ArrayList<>();
        for (int i = 0; i < 40; i++) {
            records.add(KeyValue.of(key(i), "v"));
            expected.put(key(i), 1L);
        }
        KAFKA.client().produceStrings(input, records);
        TlsFiles tls = TlsFiles.create(dir, "query-ca");
        Path trustStore = tls.trustStore("trust.p12");
        Path tokenFile = java.nio.file.Files.writeString(dir.resolve("token"), "query-token\n");
        String appId = "squery-" + input;
        Topology topology = counting(input, output);
        try (WeirApp a = TestApps.start(
                        topology, secured(appId, "a", tls.keyStore("a.p12", "a"), trustStore, tokenFile));
                WeirApp b = TestApps.start(
                        topology, secured(appId, "b", tls.keyStore("b.p12", "b"), trustStore, tokenFile))) {
            KAFKA.client().readUntil(output, r -> Records.lastLongPerKey(r).equals(expected), Duration.ofMinutes(2));
            HttpClient https = HttpClient.newBuilder()
                    .sslContext(TlsFiles.clientContext(null, trustStore))
                    .version(HttpClient.Version.HTTP_1_1)
                    .build();
            StoreQueryClient queries = StoreQueryClient.builder()
                    .endpoint("https://localhost:" + a.httpAdminPort().orElseThrow())
                    .endpoint("https://localhost:" + b.httpAdminPort().orElseThrow())
                    .httpClient(https)
                    .bearerToken("query-token")
                    .build();
            await().atMost(Duration.ofMinutes(1))
                    .pollInterval(Duration.ofMillis(500))
                    .untilAsserted(() -> {
                        Set<String> answeredBy = new HashSet<>();
                        for (Map.Entry<String, Long> e : expected.entrySet()) {
                            QueryAnswer answer =
                                    queries.get("counts", e.getKey()).orElseThrow();
                            assertThat(answer.value().asLong()).isEqualTo(e.getValue());
                            answeredBy.add(answer.instance());
                        }
                        assertThat(answeredBy).containsExactlyInAnyOrder("a", "b");
                    });
            assertThat(a.keyOwners("counts", "k1")
                            .orElseThrow()
                            .active()
                            .orElseThrow()
                            .endpoint())
                    .startsWith("https://")
                    .matches(".*:(" + a.httpAdminPort().orElseThrow() + "|"
                            + b.httpAdminPort().orElseThrow() + ")$");
            HttpResponse<String> anonymous = https.send(
                    HttpRequest.newBuilder(URI.create(
                                    "https://localhost:" + a.httpAdminPort().orElseThrow() + "/stores/counts/keys/k1"))
                            .build(),
                    HttpResponse.BodyHandlers.ofString());
            assertThat(anonymous.statusCode()).as(anonymous.body()).isEqualTo(401);
            assertThatThrownBy(() -> StoreQueryClient.builder()
                            .endpoint("https://localhost:" + a.httpAdminPort().orElseThrow())
                            .httpClient(https)
                            .bearerToken("wrong")
                            .build()
                            .get("counts", "k1"))
                    .isInstanceOfSatisfying(
                            QueryException.class, e -> assertThat(e.status()).isEqualTo(401));
        }
    }

    private static WeirConfig secured(String appId, String instance, Path keyStore, Path trustStore, Path tokenFile) {
        return TestApps.config(KAFKA.bootstrapServers(), appId)
                .instanceId(instance)
                .set("http.bind.address", "localhost")
                .set("http.admin.port", 0)
                .set("http.admin.bind.address", "localhost")
                .set("http.tls.keystore.path", keyStore)
                .set("http.tls.keystore.password", TlsFiles.PASSWORD)
                .set("http.tls.truststore.path", trustStore)
                .set("http.tls.truststore.password", TlsFiles.PASSWORD)
                .set("http.auth.token.file", tokenFile)
                .build();
    }

    /** Every entry of store counts, following {@code next} from page to page; no key twice, keys ascending. */
    private static Map<String, Long> scanAll(WeirApp app, String params) throws Exception {
        Map<String, Long> seen = new TreeMap<>();
        String after = null;
        String last = null;
        do {
            JsonNode page = get(app, "/stores/counts/keys?" + params + (after == null ? "" : "&after=" + after), 200);
            for (JsonNode e : page.get("entries")) {
                String key = e.get("key").asText();
                assertThat(last == null || key.compareTo(last) > 0)
                        .as("%s after %s", key, last)
                        .isTrue();
                assertThat(seen.put(key, e.get("value").asLong()))
                        .as("%s seen twice", key)
                        .isNull();
                last = key;
            }
            after = page.get("next").isNull() ? null : page.get("next").asText();
        } while (after != null);
        return seen;
    }

    private static WeirConfig config(String appId, String instance) {
        return TestApps.config(KAFKA.bootstrapServers(), appId)
                .instanceId(instance)
                .set("http.bind.address", "127.0.0.1")
                .set("num.standby.replicas", 1)
                .build();
    }

    private static JsonNode get(WeirApp app, String pathAndQuery, int status) throws Exception {
        HttpResponse<String> r = HTTP.send(
                HttpRequest.newBuilder(
                                URI.create("http://127.0.0.1:" + app.httpPort().orElseThrow() + pathAndQuery))
                        .timeout(Duration.ofSeconds(10))
                        .build(),
                HttpResponse.BodyHandlers.ofString());
        assertThat(r.statusCode()).as("GET %s: %s", pathAndQuery, r.body()).isEqualTo(status);
        assertThat(r.headers().firstValue("Content-Type")).contains("application/json");
        return JSON.readTree(r.body());
    }

    private static String encode(String key) {
        return URLEncoder.encode(key, StandardCharsets.UTF_8).replace("+", "%20");
    }
}
