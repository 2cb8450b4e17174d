package io.weir.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.weir.common.KeyValue;
import io.weir.query.QueryAnswer;
import io.weir.query.QueryException;
import io.weir.query.StoreQueryClient;
import io.weir.testing.EosAggregatesApp;
import io.weir.testing.InstanceGroup;
import io.weir.testing.OpsInstance;
import io.weir.testkit.KafkaExtension;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Queries through a failover (issue 18): three instances of {@link EosAggregatesApp} (one standby
 * per task), clients asking continuously for keys through the live instances, one instance
 * SIGKILLed while its input keeps coming. No answer is wrong: every count read is one the key had
 * at a commit, and the answers of the active copies never go back in time. A client that accepts a
 * standby's lag ({@link StoreQueryClient}, which retries across the instances) gets every query
 * answered through the failover; plain requests that do not accept a lag get 503 with
 * {@code Retry-After} at worst, never a stale value.
 */
class QueryFailoverIT {

    @RegisterExtension
    static final KafkaExtension KAFKA = KafkaExtension.sharedPerRun();

    private static final int PARTITIONS = 6;
    private static final int KEYS = 300;
    private static final int ROUNDS = 10;
    /**
     * The bounded client's {@code maxLag}. A commit logs each key it changed once, so the first half
     * of a task's input (50 keys, 5 rounds) may be as few as 50 changelog records: a copy restoring
     * from empty is within 100 records of the end before it has read them, and answers "no such
     * key" or an early count, rightly by the bound. {@link #FILLER} distinct keys written after the
     * first half put more than {@code MAX_LAG} records behind every queried key's first-half count.
     */
    private static final int MAX_LAG = 100;
    /** Distinct keys, never queried, each once after the first half: about 300 per partition. */
    private static final int FILLER = 1800;

    private static final ObjectMapper JSON = new ObjectMapper();

    /** One answer a client got. */
    record Answer(
            int client,
            long atNanos,
            String key,
            int status,
            long count,
            String source,
            long lag,
            String retryAfter,
            String body) {}

    @Test
    void noQueryIsAnsweredWronglyThroughAKillAndBoundedQueriesAreServedByStandbys() throws Exception {
        String input = KAFKA.uniqueTopic("qfail-in", PARTITIONS);
        String echo = KAFKA.uniqueTopic("qfail-echo", PARTITIONS);
        String aggregates = KAFKA.uniqueTopic("qfail-agg", PARTITIONS);
        OpsInstance.Spec spec = new OpsInstance.Spec(KAFKA.bootstrapServers(), input, echo, "qfail-" + input)
                .withApp(EosAggregatesApp.class, aggregates)
                .withEnv("WEIR_HTTP_BIND_ADDRESS", "127.0.0.1");
        List<String> keys = new ArrayList<>();
        for (int k = 0; k < KEYS; k++) {
            keys.add("k" + k);
        }
        ConcurrentLinkedQueue<Answer> answers = new ConcurrentLinkedQueue<>();
        AtomicBoolean querying = new AtomicBoolean(true);
        try (InstanceGroup group = new InstanceGroup(spec, PARTITIONS)) {
            // Side by side: one join of three instead of three joins, each moving tasks and warming standbys.
            group.startAll("a", "b", "c");
            group.awaitSettled(Duration.ofMinutes(2), "three instances");
            produceRounds(input, keys, 0, ROUNDS / 2);
            List<String> filler = new ArrayList<>();
            for (int f = 0; f < FILLER; f++) {
                filler.add("filler-" + f);
            }
            produceRounds(input, filler, 0, 1);
            KAFKA.client().readAtLeast(aggregates, KEYS * ROUNDS / 2 + FILLER, Duration.ofMinutes(2));
            // Standbys caught up too, so the lag a standby answers with counts the filler.
            await().atMost(Duration.ofMinutes(1))
                    .pollInterval(Duration.ofMillis(200))
                    .until(() -> List.of("a", "b", "c").stream()
                            .map(id -> group.get(id).samples("weir_standby_lag_records"))
                            .allMatch(lags -> lags != null
                                    && !lags.isEmpty()
                                    && lags.stream().allMatch(l -> l.value() == 0)));
            assertThat(keys).allMatch(k -> count(group.get("b"), k, "") == ROUNDS / 2);

            List<Thread> clients = new ArrayList<>();
            clients.add(new Thread(
                    () -> query(0, "", keys, List.of(group.get("b"), group.get("c")), querying, answers),
                    "query-client-0"));
            // Given every instance, as a client is: the dead one's refusals are retried elsewhere.
            StoreQueryClient queries = StoreQueryClient.builder()
                    .endpoint(group.get("a").http().base())
                    .endpoint(group.get("b").http().base())
                    .endpoint(group.get("c").http().base())
                    .deadline(Duration.ofSeconds(10))
                    .build();
            clients.add(new Thread(() -> queryWithClient(1, keys, queries, querying, answers), "query-client-1"));
            clients.forEach(Thread::start);
            int beforeKill = answers.size() + 100;
            await().atMost(Duration.ofSeconds(30)).until(() -> answers.size() >= beforeKill); // answers before the kill
            long killedAt = System.nanoTime();
            group.kill("a");
            produceRounds(input, keys, ROUNDS / 2, ROUNDS);
            await().atMost(Duration.ofMinutes(2))
                    .pollInterval(Duration.ofMillis(500))
                    .until(() -> keys.stream()
                            .allMatch(k ->
                                    count(group.get("b"), k, "") == ROUNDS && count(group.get("c"), k, "") == ROUNDS));
            group.awaitSettled(Duration.ofMinutes(1), "two instances", List.of("a"));
            int afterFailover = answers.size() + 100;
            await().atMost(Duration.ofSeconds(30))
                    .until(() -> answers.size() >= afterFailover); // and after the failover
            querying.set(false);
            for (Thread t : clients) {
                t.join(10_000);
            }

            Map<String, Long> lastActive = new HashMap<>();
            int failedBounded = 0;
            int standbyAnswers = 0;
            int unboundedAnswers = 0;
            for (Answer a : answers) {
                if (a.status() == 200) {
                    assertThat(a.count())
                            .as("count of %s: %s", a.key(), a.body())
                            .isBetween((long) ROUNDS / 2, (long) ROUNDS);
                    if (a.source().equals("active")) {
                        String k = a.client() + "/" + a.key();
                        assertThat(a.count())
                                .as("active answers for %s go forward: %s", k, a.body())
                                .isGreaterThanOrEqualTo(lastActive.getOrDefault(k, 0L));
                        lastActive.put(k, a.count());
                    } else {
                        assertThat(a.client())
                                .as("only a client with a bound gets a standby's answer")
                                .isEqualTo(1);
                        assertThat(a.source()).isIn("standby", "restoring");
                        assertThat(a.lag()).isBetween(0L, (long) MAX_LAG);
                        standbyAnswers++;
                    }
                    if (a.client() == 0) {
                        unboundedAnswers++;
                    }
                } else {
                    if (a.client() == 1) {
                        failedBounded++;
                        System.out.printf(
                                "QueryFailoverIT: a bounded query failed %.1f s after the kill: %s%n",
                                (a.atNanos() - killedAt) / 1e9, a.body());
                        continue;
                    }
                    assertThat(a.status())
                            .as("a query not answered: %s", a.body())
                            .isEqualTo(503);
                    assertThat(a.retryAfter()).as("Retry-After of %s", a.body()).isEqualTo("1");
                }
            }
            System.out.printf(
                    "QueryFailoverIT: %d answers, %d unbounded answered, %d standby answers,"
                            + " %d bounded failures%n",
                    answers.size(), unboundedAnswers, standbyAnswers, failedBounded);
            assertThat(unboundedAnswers).isPositive();
            assertThat(failedBounded)
                    .as("bounded queries through the client that failed")
                    .isZero();
            assertThat(standbyAnswers)
                    .as("answers of standbys or restoring copies")
                    .isPositive();
        } finally {
            querying.set(false);
        }
    }

    /** Rounds {@code from} (inclusive) to {@code to}: each key once per round, value 1. */
    private static void produceRounds(String input, List<String> keys, int from, int to) {
        List<KeyValue<byte[], byte[]>> records = new ArrayList<>();
        for (int r = from; r < to; r++) {
            for (String k : keys) {
                records.add(KeyValue.of(
                        k.getBytes(StandardCharsets.UTF_8),
                        ByteBuffer.allocate(8).putLong(1L).array()));
            }
        }
        KAFKA.client().produce(input, records);
    }

    private static void query(
            int client,
            String bound,
            List<String> keys,
            List<OpsInstance> via,
            AtomicBoolean querying,
            ConcurrentLinkedQueue<Answer> answers) {
        HttpClient http =
                HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();
        Random random = new Random(client);
        while (querying.get()) {
            String key = keys.get(random.nextInt(keys.size()));
            OpsInstance instance = via.get(random.nextInt(via.size()));
            long at = System.nanoTime();
            try {
                HttpResponse<String> r = http.send(
                        HttpRequest.newBuilder(URI.create(instance.http().base() + "/stores/" + EosAggregatesApp.STORE
                                        + "/keys/" + key + bound))
                                .timeout(Duration.ofSeconds(15))
                                .build(),
                        HttpResponse.BodyHandlers.ofString());
                JsonNode body = JSON.readTree(r.body());
                answers.add(new Answer(
                        client,
                        at,
                        key,
                        r.statusCode(),
                        body.path("value").path("count").asLong(-1),
                        body.path("source").asText(),
                        body.path("lag").asLong(-1),
                        r.headers().firstValue("Retry-After").orElse(null),
                        r.body()));
            } catch (Exception e) {
                answers.add(new Answer(client, at, key, 0, -1, "", -1, null, e.toString()));
            }
        }
    }

    /** Queries through the shipped client, which retries across the instances it is given. */
    private static void queryWithClient(
            int client,
            List<String> keys,
            StoreQueryClient queries,
            AtomicBoolean querying,
            ConcurrentLinkedQueue<Answer> answers) {
        Random random = new Random(client);
        while (querying.get()) {
            String key = keys.get(random.nextInt(keys.size()));
            long at = System.nanoTime();
            try {
                Optional<QueryAnswer> a = queries.get(EosAggregatesApp.STORE, key, MAX_LAG);
                answers.add(a.map(x -> new Answer(
                                client,
                                at,
                                key,
                                200,
                                x.value().path("count").asLong(-1),
                                x.source(),
                                x.lag(),
                                null,
                                x.body().toString()))
                        .orElseGet(() -> new Answer(client, at, key, 404, -1, "", -1, null, "no such key")));
            } catch (QueryException e) {
                answers.add(new Answer(
                        client, at, key, e.status() == 0 ? 599 : e.status(), -1, "", -1, null, e.getMessage()));
            }
        }
    }

    private static long count(OpsInstance instance, String key, String params) {
        try {
            HttpResponse<String> r = HttpClient.newHttpClient()
                    .send(
                            HttpRequest.newBuilder(URI.create(instance.http().base() + "/stores/"
                                            + EosAggregatesApp.STORE + "/keys/" + key + params))
                                    .timeout(Duration.ofSeconds(10))
                                    .build(),
                            HttpResponse.BodyHandlers.ofString());
            return r.statusCode() == 200
                    ? JSON.readTree(r.body()).path("value").path("count").asLong()
                    : -1;
        } catch (Exception e) {
            return -1;
        }
    }
}
