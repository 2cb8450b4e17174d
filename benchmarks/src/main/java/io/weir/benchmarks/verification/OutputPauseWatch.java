package io.weir.benchmarks.verification;

import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicReference;
import java.util.stream.IntStream;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;

/**
 * Watches the committed output of every partition of a topic, as a downstream {@code read_committed}
 * consumer sees it, and notes when each partition's records arrive ({@link PauseTracker}): the
 * pauses of the scale-out and savepoint workloads. A thread of its own polls every {@link #POLL}
 * from the topic's end
 * at {@link #start}; a reception is the moment a poll returned records of the partition.
 *
 * <p>The consumer answers as soon as committed data is there ({@code fetch.min.bytes} 1) and
 * otherwise waits at most {@code fetch.max.wait.ms} 50 ms, so a reception is at most some tens of
 * milliseconds after the commit that made it visible. The watch runs in the benchmark's JVM, so a
 * pause of that JVM (a garbage collection) delays receptions too.
 */
public final class OutputPauseWatch implements AutoCloseable {

    static final Duration POLL = Duration.ofMillis(20);
    private static final Duration CLOSE_TIMEOUT = Duration.ofSeconds(10);

    private final KafkaConsumer<byte[], byte[]> consumer;
    private final PauseTracker tracker;
    private final Thread reader;
    private final AtomicReference<Throwable> failure = new AtomicReference<>();
    private volatile boolean stopping;

    private OutputPauseWatch(KafkaConsumer<byte[], byte[]> consumer, int partitions) {
        this.consumer = consumer;
        this.tracker = new PauseTracker(partitions, System.nanoTime());
        this.reader = new Thread(this::read, "output-pause-watch");
        this.reader.setDaemon(true);
    }

    /** Starts watching {@code topic}'s {@code partitions} partitions from their current ends. */
    public static OutputPauseWatch start(String bootstrapServers, String topic, int partitions) {
        KafkaConsumer<byte[], byte[]> consumer = readCommittedConsumer(bootstrapServers);
        try {
            List<TopicPartition> all = IntStream.range(0, partitions)
                    .mapToObj(p -> new TopicPartition(topic, p))
                    .toList();
            consumer.assign(all);
            consumer.seekToEnd(all);
            all.forEach(p -> consumer.position(p, Duration.ofSeconds(30))); // resolved now, not while watching
        } catch (RuntimeException e) {
            consumer.close(Duration.ofSeconds(5));
            throw e;
        }
        OutputPauseWatch watch = new OutputPauseWatch(consumer, partitions);
        watch.reader.start();
        return watch;
    }

    /**
     * A {@code read_committed} consumer without a group, for reading output as a downstream
     * consumer would: no auto-commit, byte arrays, {@code fetch.max.wait.ms} 50 ms.
     */
    public static KafkaConsumer<byte[], byte[]> readCommittedConsumer(String bootstrapServers) {
        Map<String, Object> c = new HashMap<>();
        c.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers);
        c.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
        c.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
        // The broker answers a fetch as soon as committed data is there; this bounds the wait otherwise.
        c.put(ConsumerConfig.FETCH_MAX_WAIT_MS_CONFIG, 50);
        return new KafkaConsumer<>(c, new ByteArrayDeserializer(), new ByteArrayDeserializer());
    }

    private void read() {
        try {
            while (!stopping) {
                ConsumerRecords<byte[], byte[]> records = consumer.poll(POLL);
                long now = System.nanoTime();
                for (TopicPartition p : records.partitions()) {
                    tracker.received(p.partition(), now);
                }
            }
        } catch (RuntimeException e) {
            failure.compareAndSet(null, e);
        } finally {
            consumer.close(Duration.ofSeconds(5));
        }
    }

    /** The longest pause of any partition in [from, to] ({@link PauseTracker#longest}). */
    public PauseTracker.Pause longest(long fromNanos, long toNanos) {
        return tracker.longest(fromNanos, toNanos);
    }

    /** Whether every partition has had committed output at or after {@code nanos}. */
    public boolean allReceivedSince(long nanos) {
        return tracker.allReceivedSince(nanos);
    }

    /** Why the watch stopped by itself, if it did. */
    public Optional<Throwable> failure() {
        return Optional.ofNullable(failure.get());
    }

    @Override
    public void close() {
        stopping = true;
        try {
            reader.join(CLOSE_TIMEOUT.toMillis());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
