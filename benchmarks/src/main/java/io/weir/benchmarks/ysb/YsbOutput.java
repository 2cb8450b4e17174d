package io.weir.benchmarks.ysb;

import io.weir.benchmarks.KafkaClients;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.serialization.LongDeserializer;
import org.apache.kafka.common.serialization.StringDeserializer;

/**
 * Reads the job's output as a {@code read_committed} consumer would, on a thread of its own, and
 * notes for every window each count it saw, when (wall clock, on receipt) and whether it was marked
 * final (Weir's {@code weir.pane: final} header). A result is visible to such a reader once its
 * transaction commits; receipt follows within a poll.
 */
final class YsbOutput implements AutoCloseable {

    /** One count of a window as the reader saw it. */
    record Seen(long count, long atMs, boolean finalPane) {}

    private static final String PANE_HEADER = "weir.pane";
    private static final byte[] FINAL = "final".getBytes(StandardCharsets.UTF_8);

    private final Map<String, List<Seen>> seen = new HashMap<>();
    private final AtomicReference<Throwable> failure = new AtomicReference<>();
    private final Thread reader;
    private volatile boolean running = true;

    YsbOutput(String bootstrapServers, String topic, int partitions) {
        Map<String, Object> settings = Map.of(
                ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG,
                bootstrapServers,
                ConsumerConfig.ISOLATION_LEVEL_CONFIG,
                "read_committed",
                ConsumerConfig.FETCH_MAX_WAIT_MS_CONFIG,
                10);
        reader = new Thread(() -> read(settings, topic, partitions), "ysb-output-reader");
        reader.setDaemon(true);
        reader.start();
    }

    private void read(Map<String, Object> settings, String topic, int partitions) {
        try (KafkaConsumer<String, byte[]> consumer = KafkaClients.consumer(settings, new StringDeserializer())) {
            List<TopicPartition> all = new ArrayList<>();
            for (int p = 0; p < partitions; p++) {
                all.add(new TopicPartition(topic, p));
            }
            consumer.assign(all);
            consumer.seekToBeginning(all);
            LongDeserializer counts = new LongDeserializer();
            while (running) {
                var records = consumer.poll(Duration.ofMillis(20));
                long now = System.currentTimeMillis();
                synchronized (seen) {
                    for (ConsumerRecord<String, byte[]> r : records) {
                        Header pane = r.headers().lastHeader(PANE_HEADER);
                        seen.computeIfAbsent(r.key(), k -> new ArrayList<>())
                                .add(new Seen(
                                        counts.deserialize(topic, r.value()),
                                        now,
                                        pane != null && java.util.Arrays.equals(FINAL, pane.value())));
                    }
                }
            }
        } catch (Throwable e) {
            failure.set(e);
        }
    }

    /** What was seen so far, per window, in the order received. */
    Map<String, List<Seen>> seen() {
        synchronized (seen) {
            Map<String, List<Seen>> copy = new HashMap<>();
            seen.forEach((w, list) -> copy.put(w, List.copyOf(list)));
            return copy;
        }
    }

    /** Why the reader stopped, if it did. */
    Optional<Throwable> failure() {
        return Optional.ofNullable(failure.get());
    }

    @Override
    public void close() throws InterruptedException {
        running = false;
        reader.join(Duration.ofSeconds(30).toMillis());
    }
}
