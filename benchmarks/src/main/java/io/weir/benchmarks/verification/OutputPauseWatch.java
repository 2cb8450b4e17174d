package io.weir.benchmarks.verification;

import io.weir.benchmarks.KafkaClients;
import io.weir.common.internal.Worker;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicReference;
import java.util.stream.IntStream;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;

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
    private final AtomicReference<Throwable> failure = new AtomicReference<>();
    private Worker reader;

    private OutputPauseWatch(KafkaConsumer<byte[], byte[]> consumer, int partitions) {
        this.consumer = consumer;
        this.tracker = new PauseTracker(partitions, System.nanoTime());
    }

    /** Starts watching {@code topic}'s {@code partitions} partitions from their current ends. */
    public static OutputPauseWatch start(String bootstrapServers, String topic, int partitions) {
        List<TopicPartition> all = IntStream.range(0, partitions)
                .mapToObj(p -> new TopicPartition(topic, p))
                .toList();
        OutputPauseWatch watch =
                new OutputPauseWatch(KafkaClients.readCommittedFromEnd(bootstrapServers, all), partitions);
        // Not interrupted: the consumer is closed by its own thread once a poll returns.
        watch.reader = Worker.named("output-pause-watch")
                .interruptOnStop(false)
                .joinTimeout(CLOSE_TIMEOUT)
                .onFailure(e -> watch.failure.compareAndSet(null, e))
                .onExit(() -> watch.consumer.close(Duration.ofSeconds(5)))
                .loop(self -> watch.read());
        return watch;
    }

    private void read() {
        ConsumerRecords<byte[], byte[]> records = consumer.poll(POLL);
        long now = System.nanoTime();
        for (TopicPartition p : records.partitions()) {
            tracker.received(p.partition(), now);
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
        reader.close();
    }
}
