import io.weir.testkit.EmbeddedKafka;
import io.weir.testkit.KafkaTestClient;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.StringSerializer;

/**
 * Resident memory of a served word count under a steady load of many distinct words, with and
 * without MALLOC_ARENA_MAX (or with jemalloc preloaded), to choose the chart's default
 * (helm/weir, jvm.mallocArenaMax). README.md beside this file has the figures.
 *
 * <p>This JVM runs a testkit broker and the load; the application runs in a child JVM
 * ({@code Samples serve word-count}) with the JVM options the chart gives a pod with a 1536 MiB
 * limit (-XX:MaxRAM emulates the container limit), so /proc/&lt;pid&gt;/status is the
 * application's alone. Every {@code sampleSeconds} one JSON line goes to the output file.
 *
 * <p>Run from the repository root after {@code mvn -o -q package -pl sample-apps -am -DskipTests}:
 * <pre>
 * CP='sample-apps/target/weir-sample-apps.jar:sample-apps/target/weir-lib/*:sample-apps/target/lib/*'
 * java -cp "$CP" benchmarks/results/malloc-arena/ArenaRss.java &lt;label&gt; &lt;MALLOC_ARENA_MAX, - or jemalloc&gt; &lt;seconds&gt; &lt;out.jsonl&gt;
 * </pre>
 */
public class ArenaRss {

    static final int LINES_PER_SECOND = 600;
    static final int WORDS_PER_LINE = 10;
    /** Distinct words the load draws from: the store keeps growing for the whole run. */
    static final int VOCABULARY = 5_000_000;
    static final int SAMPLE_SECONDS = 5;

    public static void main(String[] args) throws Exception {
        String label = args[0];
        String arenaMax = args[1];
        long seconds = Long.parseLong(args[2]);
        Path out = Path.of(args[3]);
        String classpath = System.getProperty("java.class.path");
        Path stateDir = Files.createTempDirectory("weir-arena-rss-");
        int httpPort = 18080 + (int) (System.nanoTime() % 1000);

        try (EmbeddedKafka kafka = EmbeddedKafka.start(); KafkaTestClient client = KafkaTestClient.connect(kafka)) {
            client.createTopic("lines", 4);
            client.createTopic("word-counts", 4);

            List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                    // What the chart gives a pod with resources.limits.memory 1536Mi (MaxRAM stands in for the cgroup limit).
                    "-XX:MaxRAM=1536m", "-XX:MaxRAMPercentage=50.0", "-XX:+UseG1GC", "-XX:+ExitOnOutOfMemoryError",
                    "-cp", classpath, "io.weir.samples.Samples", "serve", "word-count"));
            ProcessBuilder app = new ProcessBuilder(command)
                    .redirectErrorStream(true)
                    .redirectOutput(stateDir.resolve("app.log").toFile());
            app.environment().put("WEIR_BOOTSTRAP_SERVERS", kafka.bootstrapServers());
            app.environment().put("WEIR_STATE_DIR", stateDir.resolve("state").toString());
            app.environment().put("WEIR_INSTANCE_ID", "arena-1");
            app.environment().put("WEIR_HTTP_PORT", Integer.toString(httpPort));
            app.environment().put("WEIR_NUM_STREAM_THREADS", "2");
            app.environment().remove("MALLOC_ARENA_MAX");
            if (arenaMax.equals("jemalloc")) {
                // Debian's libjemalloc2 in place of glibc's malloc (not in Weir's image).
                app.environment().put("LD_PRELOAD", "/usr/lib/x86_64-linux-gnu/libjemalloc.so.2");
            } else if (!arenaMax.equals("-")) {
                app.environment().put("MALLOC_ARENA_MAX", arenaMax);
            }
            Process process = app.start();
            try (KafkaProducer<String, String> producer = producer(kafka.bootstrapServers())) {
                HttpClient http = HttpClient.newHttpClient();
                SplittableRandom random = new SplittableRandom(42);
                Instant start = Instant.now();
                long sent = 0;
                long nextSample = 0;
                while (Duration.between(start, Instant.now()).getSeconds() < seconds) {
                    if (!process.isAlive()) {
                        throw new IllegalStateException("application exited " + process.exitValue() + "; see " + stateDir.resolve("app.log"));
                    }
                    long elapsedMs = Duration.between(start, Instant.now()).toMillis();
                    long due = elapsedMs * LINES_PER_SECOND / 1000;
                    while (sent < due) {
                        StringBuilder line = new StringBuilder();
                        for (int w = 0; w < WORDS_PER_LINE; w++) {
                            line.append(w == 0 ? "" : " ").append('w').append(random.nextInt(VOCABULARY));
                        }
                        producer.send(new ProducerRecord<>("lines", "line-" + sent, line.toString()));
                        sent++;
                    }
                    if (elapsedMs >= nextSample * 1000L) {
                        String metrics = scrape(http, httpPort);
                        long rssKib = status(process.pid(), "VmRSS");
                        double heapCommitted = metric(metrics, "jvm_memory_committed_bytes", "area=\"heap\"");
                        // Resident memory outside the Java heap: RocksDB, the JVM's native memory, and malloc's arenas.
                        String json = String.format("{\"run\":\"%s\",\"malloc_arena_max\":%s,\"t_s\":%d,\"vm_rss_kib\":%d,"
                                        + "\"heap_committed_kib\":%.0f,\"outside_heap_kib\":%.0f,\"rocksdb_usage_kib\":%.0f,"
                                        + "\"nonheap_committed_kib\":%.0f,\"lines_sent\":%d,\"records_in\":%.0f,\"heap_used_kib\":%.0f}%n",
                                label, arenaMax.equals("-") ? "null" : arenaMax.equals("jemalloc") ? "\"jemalloc\"" : arenaMax, elapsedMs / 1000, rssKib,
                                heapCommitted / 1024, heapCommitted < 0 ? -1 : rssKib - heapCommitted / 1024,
                                metric(metrics, "weir_rocksdb_memory_usage_bytes", null) / 1024,
                                metric(metrics, "jvm_memory_committed_bytes", "area=\"nonheap\"") / 1024,
                                sent, metric(metrics, "weir_records_in_total", null),
                                metric(metrics, "jvm_memory_used_bytes", "area=\"heap\"") / 1024);
                        Files.writeString(out, json, StandardCharsets.UTF_8, StandardOpenOption.CREATE, StandardOpenOption.APPEND);
                        System.out.print(json);
                        nextSample += SAMPLE_SECONDS;
                    }
                    Thread.sleep(20); // pacing of the load generator, not a wait for an outcome
                }
            } finally {
                process.destroy();
                if (!process.waitFor(60, TimeUnit.SECONDS)) {
                    process.destroyForcibly();
                }
            }
        } finally {
            try (var paths = Files.walk(stateDir)) {
                paths.sorted(java.util.Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
            }
        }
    }

    static KafkaProducer<String, String> producer(String bootstrap) {
        Properties p = new Properties();
        p.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
        p.put(ProducerConfig.LINGER_MS_CONFIG, 20);
        return new KafkaProducer<>(p, new StringSerializer(), new StringSerializer());
    }

    static long status(long pid, String field) throws IOException {
        for (String line : Files.readAllLines(Path.of("/proc", Long.toString(pid), "status"))) {
            if (line.startsWith(field + ":")) {
                return Long.parseLong(line.replaceAll("[^0-9]", ""));
            }
        }
        return -1;
    }

    /** The text of /metrics, or "" while the application does not answer yet. */
    static String scrape(HttpClient http, int port) {
        try {
            return http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/metrics"))
                    .timeout(Duration.ofSeconds(3)).build(), HttpResponse.BodyHandlers.ofString()).body();
        } catch (Exception e) {
            return "";
        }
    }

    /** Sum of a metric's series (with labels containing {@code labelPart}); -1 when absent. */
    static double metric(String metrics, String name, String labelPart) {
        double sum = 0;
        boolean found = false;
        for (String line : metrics.split("\n")) {
            if ((line.startsWith(name + "{") || line.startsWith(name + " ")) && (labelPart == null || line.contains(labelPart))) {
                sum += Double.parseDouble(line.substring(line.lastIndexOf(' ') + 1));
                found = true;
            }
        }
        return found ? sum : -1;
    }
}
