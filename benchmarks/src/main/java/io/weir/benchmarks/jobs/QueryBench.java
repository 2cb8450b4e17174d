package io.weir.benchmarks.jobs;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.sun.net.httpserver.HttpServer;
import io.weir.Topology;
import io.weir.TopologyBuilder;
import io.weir.WeirApp;
import io.weir.benchmarks.input.Workload;
import io.weir.benchmarks.report.Json;
import io.weir.benchmarks.report.JsonReport;
import io.weir.common.KeyValue;
import io.weir.common.internal.Deadline;
import io.weir.common.internal.KafkaCalls;
import io.weir.common.internal.Poll;
import io.weir.config.WeirConfig;
import io.weir.serde.Serdes;
import io.weir.testkit.KafkaTestClient;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.HdrHistogram.Histogram;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The {@code queries} workload: key lookups over HTTP against a running application. Two Weir
 * instances in this JVM share a count over {@code --keys} keys (4 partitions, 2 tasks each, no
 * standbys); {@value #CLIENTS} client threads ask instance {@code a} for random keys as fast as it
 * answers (each waits for its answer: a closed loop), for the measured time after a warm-up. About
 * half the keys are on {@code a} (read there: {@code local}) and half on {@code b} ({@code a}
 * forwards: one more hop). Then the same clients ask {@code a} only for the keys it holds
 * ({@code weir_local_keys}: what one instance serves when clients route by {@code keyOwners}).
 * Beside it, the floor: a bare JDK HTTP server with the same threads, answering the same keys
 * from a map with a JSON body of the same shape ({@code bare_http}).
 *
 * <p>Per system one line: {@code qps} (answers a second), {@code p50_ms}, {@code p99_ms}, and for
 * Weir the same for {@code local} and {@code forwarded} answers, and {@code errors}; then a summary.
 */
public final class QueryBench {

    private static final Logger log = LoggerFactory.getLogger(QueryBench.class);
    static final int CLIENTS = 4;
    private static final int PARTITIONS = 4;
    private static final String STORE = "counts";
    private static final Duration COUNTED_TIMEOUT = Duration.ofMinutes(5);
    private static final Duration COUNTED_CHECK = Duration.ofMillis(200);

    private final KafkaTestClient client;
    private final JsonReport report;
    private final int keys;
    private final Duration warmup;
    private final Duration measured;

    public QueryBench(KafkaTestClient client, JsonReport report, int keys, Duration warmup, Duration measured) {
        this.client = client;
        this.report = report;
        this.keys = keys;
        this.warmup = warmup;
        this.measured = measured;
    }

    /** Latencies and counts of one measured phase. */
    private static final class Phase {
        final Histogram all = new Histogram(TimeUnit.SECONDS.toNanos(30), 3);
        final Histogram local = new Histogram(TimeUnit.SECONDS.toNanos(30), 3);
        final Histogram forwarded = new Histogram(TimeUnit.SECONDS.toNanos(30), 3);
        final AtomicLong errors = new AtomicLong();
        double seconds;

        synchronized void add(Phase p) {
            all.add(p.all);
            local.add(p.local);
            forwarded.add(p.forwarded);
            errors.addAndGet(p.errors.get());
        }
    }

    public boolean run() throws Exception {
        String id = "bench-queries-" + UUID.randomUUID().toString().substring(0, 8);
        String input = id + "-in";
        Workload.createTopic(client, input, PARTITIONS, Map.of());
        Workload.createTopic(client, id + "-out", PARTITIONS, Map.of());
        List<KeyValue<byte[], byte[]>> records = new ArrayList<>(keys);
        for (int k = 0; k < keys; k++) {
            records.add(KeyValue.of(key(k).getBytes(StandardCharsets.UTF_8), new byte[] {1}));
        }
        client.produce(input, records);
        TopologyBuilder b = new TopologyBuilder();
        b.stream(Serdes.strings(), Serdes.bytes(), input)
                .groupByKey()
                .count(STORE)
                .toStream()
                .to(id + "-out", Serdes.strings(), Serdes.longs());
        Topology topology = b.build();
        Path state = Files.createTempDirectory(id);
        try (WeirApp a = WeirApp.create(topology, config(id, "a", state)).start();
                WeirApp bApp = WeirApp.create(topology, config(id, "b", state)).start()) {
            awaitCounted(id, input);
            String base = "http://127.0.0.1:" + a.httpPort().orElseThrow();
            log.info(
                    "queries: {} keys counted by two instances; {} s warm-up, then {} s with {} clients",
                    keys,
                    warmup.toSeconds(),
                    measured.toSeconds(),
                    CLIENTS);
            List<String> all = new ArrayList<>();
            List<String> onA = new ArrayList<>();
            for (int k = 0; k < keys; k++) {
                all.add(key(k));
                if (a.keyOwners(STORE, key(k))
                        .flatMap(o -> o.active())
                        .map(i -> i.id())
                        .orElse("")
                        .equals("a")) {
                    onA.add(key(k));
                }
            }
            load(base, "a", all, warmup);
            Phase weir = load(base, "a", all, measured);
            report.line(line("weir", weir, true));
            // What one instance serves when every query reaches the instance holding its key.
            Phase weirLocal = load(base, "a", onA, measured);
            report.line(line("weir_local_keys", weirLocal, false));
            Phase bare = bare();
            report.line(line("bare_http", bare, false));
            ObjectNode summary = Json.MAPPER
                    .createObjectNode()
                    .put("summary", true)
                    .put("workload", "queries")
                    .put("clients", CLIENTS)
                    .put("keys", keys);
            summary.put("weir_qps", Math.round(weir.all.getTotalCount() / weir.seconds));
            summary.put("bare_http_qps", Math.round(bare.all.getTotalCount() / bare.seconds));
            summary.put("weir_local_keys_qps", Math.round(weirLocal.all.getTotalCount() / weirLocal.seconds));
            summary.put(
                    "weir_local_keys_vs_bare_http",
                    Math.round(1000.0
                                    * (weirLocal.all.getTotalCount() / weirLocal.seconds)
                                    / (bare.all.getTotalCount() / bare.seconds))
                            / 1000.0);
            summary.put("weir_local_keys_p50_ms", ms(weirLocal.all.getValueAtPercentile(50)));
            summary.put("weir_local_keys_p99_ms", ms(weirLocal.all.getValueAtPercentile(99)));
            summary.put("weir_local_p50_ms", ms(weir.local.getValueAtPercentile(50)));
            summary.put("weir_local_p99_ms", ms(weir.local.getValueAtPercentile(99)));
            summary.put("weir_forwarded_p50_ms", ms(weir.forwarded.getValueAtPercentile(50)));
            summary.put("weir_forwarded_p99_ms", ms(weir.forwarded.getValueAtPercentile(99)));
            summary.put("bare_http_p50_ms", ms(bare.all.getValueAtPercentile(50)));
            summary.put("bare_http_p99_ms", ms(bare.all.getValueAtPercentile(99)));
            report.line(summary);
            return weir.errors.get() == 0 && weirLocal.errors.get() == 0 && bare.errors.get() == 0;
        } finally {
            deleteQuietly(state);
        }
    }

    private ObjectNode line(String system, Phase p, boolean split) {
        ObjectNode line = Json.MAPPER
                .createObjectNode()
                .put("workload", "queries")
                .put("system", system)
                .put("clients", CLIENTS)
                .put("seconds", Math.round(p.seconds * 10) / 10.0)
                .put("answers", p.all.getTotalCount())
                .put("qps", Math.round(p.all.getTotalCount() / p.seconds))
                .put("p50_ms", ms(p.all.getValueAtPercentile(50)))
                .put("p99_ms", ms(p.all.getValueAtPercentile(99)));
        if (split) {
            line.put("local", p.local.getTotalCount())
                    .put("local_p50_ms", ms(p.local.getValueAtPercentile(50)))
                    .put("local_p99_ms", ms(p.local.getValueAtPercentile(99)))
                    .put("forwarded", p.forwarded.getTotalCount())
                    .put("forwarded_p50_ms", ms(p.forwarded.getValueAtPercentile(50)))
                    .put("forwarded_p99_ms", ms(p.forwarded.getValueAtPercentile(99)));
        }
        return line.put("errors", p.errors.get());
    }

    /** {@link #CLIENTS} closed-loop clients against {@code base} for {@code time}. */
    private Phase load(String base, String localInstance, List<String> keyList, Duration time)
            throws InterruptedException {
        HttpClient http = HttpClient.newBuilder()
                .version(HttpClient.Version.HTTP_1_1)
                .connectTimeout(Duration.ofSeconds(5))
                .build();
        Phase total = new Phase();
        Deadline end = Deadline.after(time);
        long start = System.nanoTime();
        List<Thread> threads = new ArrayList<>();
        for (int c = 0; c < CLIENTS; c++) {
            Thread t = new Thread(
                    () -> {
                        Phase mine = new Phase();
                        while (!end.expired()) {
                            String key = keyList.get(ThreadLocalRandom.current().nextInt(keyList.size()));
                            long t0 = System.nanoTime();
                            try {
                                HttpResponse<byte[]> r = http.send(
                                        HttpRequest.newBuilder(URI.create(base + "/stores/" + STORE + "/keys/" + key))
                                                .timeout(Duration.ofSeconds(10))
                                                .GET()
                                                .build(),
                                        HttpResponse.BodyHandlers.ofByteArray());
                                long took = System.nanoTime() - t0;
                                if (r.statusCode() != 200) {
                                    mine.errors.incrementAndGet();
                                    continue;
                                }
                                mine.all.recordValue(took);
                                JsonNode body = Json.MAPPER.readTree(r.body());
                                (localInstance.equals(body.path("instance").asText()) ? mine.local : mine.forwarded)
                                        .recordValue(took);
                            } catch (IOException e) {
                                mine.errors.incrementAndGet();
                            } catch (InterruptedException e) {
                                Thread.currentThread().interrupt();
                                return;
                            }
                        }
                        total.add(mine);
                    },
                    "query-client-" + c);
            t.start();
            threads.add(t);
        }
        for (Thread t : threads) {
            t.join();
        }
        total.seconds = (System.nanoTime() - start) / 1e9;
        return total;
    }

    /** The floor: the JDK server, two threads as Weir's, a map lookup and a JSON body of the same shape. */
    private Phase bare() throws Exception {
        Map<String, Long> counts = new ConcurrentHashMap<>();
        for (int k = 0; k < keys; k++) {
            counts.put(key(k), 1L);
        }
        HttpServer server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        var executor = Executors.newFixedThreadPool(2);
        server.setExecutor(executor);
        String prefix = "/stores/" + STORE + "/keys/";
        server.createContext("/", exchange -> {
            try (exchange) {
                String key = exchange.getRequestURI().getPath().substring(prefix.length());
                ObjectNode body = Json.MAPPER
                        .createObjectNode()
                        .put("store", STORE)
                        .put("instance", "bare")
                        .put("task", "0_0")
                        .put("source", "active")
                        .put("lag", 0)
                        .put("key", key);
                body.put("value", counts.get(key));
                byte[] bytes = Json.MAPPER.writerWithDefaultPrettyPrinter().writeValueAsBytes(body);
                exchange.getResponseHeaders().set("Content-Type", "application/json");
                exchange.sendResponseHeaders(200, bytes.length);
                try (OutputStream out = exchange.getResponseBody()) {
                    out.write(bytes);
                }
            }
        });
        server.start();
        try {
            String base = "http://127.0.0.1:" + server.getAddress().getPort();
            List<String> all = new ArrayList<>(counts.keySet());
            load(base, "bare", all, warmup);
            return load(base, "bare", all, measured);
        } finally {
            server.stop(0);
            executor.shutdownNow();
        }
    }

    private void awaitCounted(String applicationId, String input) throws Exception {
        boolean counted = Poll.until(() -> committed(applicationId, input) >= keys, COUNTED_TIMEOUT, COUNTED_CHECK);
        if (!counted) {
            throw new IllegalStateException(
                    "the instances did not count the " + keys + " keys within " + Deadline.format(COUNTED_TIMEOUT));
        }
    }

    /** The group's committed offsets on {@code input}, summed. */
    private long committed(String applicationId, String input) {
        Map<TopicPartition, OffsetAndMetadata> offsets = KafkaCalls.get(
                client.admin().listConsumerGroupOffsets(applicationId).partitionsToOffsetAndMetadata(),
                Duration.ofSeconds(30),
                "list the offsets of " + applicationId);
        return offsets.entrySet().stream()
                .filter(e -> e.getKey().topic().equals(input) && e.getValue() != null)
                .mapToLong(e -> e.getValue().offset())
                .sum();
    }

    private WeirConfig config(String applicationId, String instance, Path state) {
        return WeirConfig.builder()
                .bootstrapServers(client.bootstrapServers())
                .applicationId(applicationId)
                .instanceId(instance)
                .stateDir(state.resolve(instance))
                .set("http.port", 0)
                .set("http.bind.address", "127.0.0.1")
                .build();
    }

    private static String key(int k) {
        return String.format("key-%07d", k);
    }

    private static double ms(long nanos) {
        return Math.round(nanos / 10_000.0) / 100.0;
    }

    private static void deleteQuietly(Path dir) {
        try (var paths = Files.walk(dir)) {
            paths.sorted(java.util.Comparator.reverseOrder())
                    .forEach(p -> p.toFile().delete());
        } catch (IOException e) {
            log.debug("could not delete {}: {}", dir, e.toString());
        }
    }
}
