package io.weir.ported;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.weir.Topology;
import io.weir.WeirApp;
import io.weir.query.KeyOwners;
import io.weir.testkit.KafkaExtension;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The interactive-queries port on a real broker, with the inputs and expected answers of
 * Confluent's {@code WordCountInteractiveQueriesExampleTest}, asked of Weir's HTTP queries instead
 * of the original's REST service: all counts, a range of words, one word through the instance that
 * holds it, and one word's minute windows. Two instances (the original runs one), so that answers
 * also come through the instance that does not hold a key.
 */
class WordCountQueriesIT {

    @RegisterExtension
    static final KafkaExtension KAFKA = KafkaExtension.sharedPerRun();

    private static final List<String> INPUT =
            List.of("hello", "world", "world", "hello world", "all streams lead to kafka", "streams", "kafka streams");

    private static final Map<String, Long> ALL =
            orderedMap("all", 1L, "hello", 2L, "kafka", 2L, "lead", 1L, "streams", 3L, "to", 1L, "world", 3L);

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final HttpClient HTTP = HttpClient.newHttpClient();

    private static Map<String, Long> orderedMap(Object... keysAndValues) {
        Map<String, Long> m = new LinkedHashMap<>();
        for (int i = 0; i < keysAndValues.length; i += 2) {
            m.put((String) keysAndValues[i], (Long) keysAndValues[i + 1]);
        }
        return m;
    }

    private static String base(WeirApp app) {
        return "http://127.0.0.1:" + app.httpPort().orElseThrow();
    }

    private static JsonNode get(String url) throws Exception {
        HttpResponse<String> r = HTTP.send(
                HttpRequest.newBuilder(URI.create(url)).build(),
                HttpResponse.BodyHandlers.ofString(StandardCharsets.UTF_8));
        assertThat(r.statusCode()).as(url + ": " + r.body()).isEqualTo(200);
        return JSON.readTree(r.body());
    }

    /** A scan's entries, in the order the instance answered them. */
    private static Map<String, Long> entries(JsonNode page) {
        Map<String, Long> m = new LinkedHashMap<>();
        page.get("entries")
                .forEach(e -> m.put(e.get("key").asText(), e.get("value").asLong()));
        return m;
    }

    @Test
    void answersTheOriginalQueriesFromAnyInstance() throws Exception {
        String lines = KAFKA.uniqueTopic("text-lines", 2);
        // The original produces at the wall clock and reads the windows up to now; one time for
        // every line keeps them in one minute's window whenever the test runs.
        long time = System.currentTimeMillis() / 60_000 * 60_000 - 60_000;
        KAFKA.client()
                .send(INPUT.stream()
                        .map(l -> new ProducerRecord<byte[], byte[]>(
                                lines, null, time, null, l.getBytes(StandardCharsets.UTF_8)))
                        .toList());
        Topology topology = WordCountQueries.topology(lines);
        String appId = "interactive-queries-" + lines;
        try (WeirApp one = WeirApp.create(
                                topology,
                                Apps.config(KAFKA.bootstrapServers(), appId).build())
                        .start();
                WeirApp two = WeirApp.create(
                                topology,
                                Apps.config(KAFKA.bootstrapServers(), appId).build())
                        .start()) {
            for (WeirApp app : List.of(one, two)) {
                // While the group settles, tasks move and a query may get 503 (retry): as the
                // original retries each request, every round of queries is retried until it passes.
                await().atMost(Duration.ofSeconds(60))
                        .pollInterval(Duration.ofMillis(200))
                        .ignoreExceptions()
                        .untilAsserted(() -> answersTheOriginalQueries(app, one, two, time));
            }

            // /state/instances: the stores the application has (the topology an instance records).
            JsonNode stores = get(base(one) + "/topology").get("stores");
            assertThat(stores.toString()).contains("\"word-count\"", "\"windowed-word-count\"");
        }
    }

    private static void answersTheOriginalQueries(WeirApp app, WeirApp one, WeirApp two, long time) throws Exception {
        // /state/keyvalues/word-count/all: every word, in key order.
        assertThat(entries(get(base(app) + "/stores/word-count/keys"))).containsExactlyEntriesOf(ALL);

        // /state/keyvalues/word-count/range/all/kafka: both bounds inclusive.
        assertThat(entries(get(base(app) + "/stores/word-count/keys?from=all&to=kafka")))
                .containsExactlyEntriesOf(orderedMap("all", 1L, "hello", 2L, "kafka", 2L));

        // /state/instance/word-count/hello, then /state/keyvalue/word-count/hello at that
        // instance; any instance answers too (forwarding the query once).
        KeyOwners owners = app.keyOwners(WordCountQueries.WORD_COUNT, "hello").orElseThrow();
        String holder = owners.active().orElseThrow().endpoint();
        assertThat(holder).isIn(base(one), base(two));
        assertThat(get(holder + "/stores/word-count/keys/hello").get("value").asLong())
                .isEqualTo(2L);
        JsonNode viaThis = get(base(app) + "/stores/word-count/keys/hello");
        assertThat(viaThis.get("value").asLong()).isEqualTo(2L);
        assertThat(viaThis.get("instance").asText())
                .isEqualTo(owners.active().orElseThrow().id());

        // /state/windowed/windowed-word-count/streams/0/<now>: one window, count 3.
        JsonNode windows = get(base(app) + "/stores/windowed-word-count/keys/streams/windows?from=0&to="
                        + System.currentTimeMillis())
                .get("windows");
        assertThat(windows).hasSize(1);
        assertThat(windows.get(0).get("start").asLong()).isEqualTo(time);
        assertThat(windows.get(0).get("value").asLong()).isEqualTo(3L);
    }
}
