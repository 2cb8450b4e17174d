package io.weir.benchmarks.input;

import io.weir.benchmarks.systems.ClientSettings;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import java.util.SplittableRandom;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArraySerializer;

/**
 * Live traffic at a fixed rate for the scaling workloads: {@code rate} records a second to keys
 * drawn uniformly (seeded) from the {@code keys} distinct keys of {@link Workload#fillDistinct}
 * ({@code key-...}), so the state's keys are updated and, through the default partitioner, every
 * partition gets its share (about {@code rate / partitions} a second); 100-byte values, the
 * benchmark's producer settings, {@code acks=all}. It sends on a thread of its own from
 * {@link #start} until {@link #close}, on a fixed schedule (record {@code n} is due at
 * {@code n / rate} s after the start; a late sender catches up), so the rate does not drift with
 * the machine's load.
 *
 * <p>Threads: {@link #sent()} and {@link #failure()} may be called from any thread.
 */
public final class SteadyInput implements AutoCloseable {

    private static final long SEED = 42 + 3; // the input generators use 42, +1 and +2
    private static final Duration CLOSE_TIMEOUT = Duration.ofSeconds(30);

    private final Thread sender;
    private final AtomicLong sent = new AtomicLong();
    private final AtomicReference<Throwable> failure = new AtomicReference<>();
    private volatile boolean stopping;

    private SteadyInput(String bootstrapServers, String topic, long keys, int rate) {
        Map<String, Object> settings = new HashMap<>(ClientSettings.producer());
        settings.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers);
        settings.put(ProducerConfig.ACKS_CONFIG, "all");
        this.sender = new Thread(() -> send(settings, topic, keys, rate), "steady-input");
        this.sender.setDaemon(true);
    }

    /** Starts sending {@code rate} records a second to {@code topic}. */
    public static SteadyInput start(String bootstrapServers, String topic, long keys, int rate) {
        if (keys <= 0 || rate <= 0) {
            throw new IllegalArgumentException("steady input needs keys and a positive rate");
        }
        SteadyInput input = new SteadyInput(bootstrapServers, topic, keys, rate);
        input.sender.start();
        return input;
    }

    /** Records handed to the producer so far. */
    public long sent() {
        return sent.get();
    }

    /** Why sending stopped by itself, if it did. */
    public Optional<Throwable> failure() {
        return Optional.ofNullable(failure.get());
    }

    private void send(Map<String, Object> settings, String topic, long keys, int rate) {
        int digits = Workload.keyDigits(keys);
        SplittableRandom random = new SplittableRandom(SEED);
        long intervalNanos = 1_000_000_000L / rate;
        try (KafkaProducer<byte[], byte[]> producer =
                new KafkaProducer<>(settings, new ByteArraySerializer(), new ByteArraySerializer())) {
            long start = System.nanoTime();
            long n = 0;
            while (!stopping && failure.get() == null) {
                long wait = start + n * intervalNanos - System.nanoTime();
                if (wait > 0) {
                    Thread.sleep(wait / 1_000_000, (int) (wait % 1_000_000)); // the schedule, not a hope
                    continue;
                }
                byte[] key = Workload.key(random.nextLong(keys), digits);
                producer.send(new ProducerRecord<>(topic, key, Workload.value(random)), (metadata, e) -> {
                    if (e != null) {
                        failure.compareAndSet(null, e);
                    }
                });
                n++;
                sent.set(n);
            }
            producer.flush();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (RuntimeException e) {
            failure.compareAndSet(null, e);
        }
    }

    /** Stops sending and returns once the records sent so far are acknowledged (or 30 s passed). */
    @Override
    public void close() {
        stopping = true;
        try {
            sender.join(CLOSE_TIMEOUT.toMillis());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        if (sender.isAlive()) {
            sender.interrupt();
        }
    }
}
