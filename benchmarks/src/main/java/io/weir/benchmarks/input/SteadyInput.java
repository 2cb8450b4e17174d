package io.weir.benchmarks.input;

import io.weir.benchmarks.KafkaClients;
import io.weir.common.internal.Worker;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Optional;
import java.util.SplittableRandom;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.LongFunction;
import java.util.function.Supplier;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;

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

    private final AtomicLong sent = new AtomicLong();
    private final AtomicReference<Throwable> failure = new AtomicReference<>();
    private final KafkaProducer<byte[], byte[]> producer;
    private final String topic;
    private final LongFunction<byte[]> key;
    private final Supplier<byte[]> value;
    private final long intervalNanos;
    private final long startNanos = System.nanoTime();
    private final Worker sender;

    private SteadyInput(
            String bootstrapServers,
            String name,
            String topic,
            int rate,
            LongFunction<byte[]> key,
            Supplier<byte[]> value) {
        if (rate <= 0) {
            throw new IllegalArgumentException("steady input needs a positive rate");
        }
        this.producer = KafkaClients.inputProducer(bootstrapServers);
        this.topic = topic;
        this.key = key;
        this.value = value;
        this.intervalNanos = 1_000_000_000L / rate;
        // Not interrupted: the producer's flush on the way out must not see an interrupt.
        this.sender = Worker.named(name)
                .interruptOnStop(false)
                .joinTimeout(CLOSE_TIMEOUT)
                .onFailure(e -> failure.compareAndSet(null, e))
                .onExit(this::flushAndClose)
                .loop(this::sendWhenDue);
    }

    /** Starts sending {@code rate} records a second to {@code topic}. */
    public static SteadyInput start(String bootstrapServers, String topic, long keys, int rate) {
        if (keys <= 0) {
            throw new IllegalArgumentException("steady input needs keys");
        }
        int digits = Workload.keyDigits(keys);
        SplittableRandom random = new SplittableRandom(SEED);
        // The key first, then the value, from one generator: one sender thread draws both.
        return new SteadyInput(
                bootstrapServers,
                "steady-input",
                topic,
                rate,
                n -> Workload.key(random.nextLong(keys), digits),
                () -> Workload.value(random));
    }

    /**
     * Starts sending {@code rate} records a second to {@code topic}, keyed {@code tick-0} ...
     * {@code tick-99} (outside the {@code key-} key set), with 100-byte values of generator
     * {@code seed}: the restart workload's trickle ({@link Workload#trickle}).
     */
    static SteadyInput ticks(String bootstrapServers, String topic, int rate, long seed) {
        SplittableRandom random = new SplittableRandom(seed);
        return new SteadyInput(
                bootstrapServers,
                "trickle",
                topic,
                rate,
                n -> ("tick-" + n % 100).getBytes(StandardCharsets.US_ASCII),
                () -> Workload.value(random));
    }

    /** Records handed to the producer so far. */
    public long sent() {
        return sent.get();
    }

    /** Why sending stopped by itself, if it did. */
    public Optional<Throwable> failure() {
        return Optional.ofNullable(failure.get());
    }

    /** Record {@code n} is due {@code n / rate} s after the start: waits for it, or sends it. */
    private void sendWhenDue(Worker self) throws InterruptedException {
        if (failure.get() != null) {
            self.stop(); // a send failed: its callback noted why
            return;
        }
        long n = sent.get();
        long wait = startNanos + n * intervalNanos - System.nanoTime();
        if (wait > 0) {
            self.pause(Duration.ofNanos(wait)); // the schedule, not a hope
            return;
        }
        producer.send(new ProducerRecord<>(topic, key.apply(n), value.get()), (metadata, e) -> {
            if (e != null) {
                failure.compareAndSet(null, e);
            }
        });
        sent.set(n + 1);
    }

    private void flushAndClose() {
        try {
            producer.flush();
        } catch (RuntimeException e) {
            failure.compareAndSet(null, e);
        } finally {
            producer.close();
        }
    }

    /** Stops sending and returns once the records sent so far are acknowledged (or 30 s passed). */
    @Override
    public void close() {
        sender.close();
    }
}
