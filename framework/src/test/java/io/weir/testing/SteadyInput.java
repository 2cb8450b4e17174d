package io.weir.testing;

import io.weir.common.KeyValue;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArraySerializer;

/**
 * Records flowing into a topic at a modest, steady rate while a fault test does its work, bounded
 * in count and in time: by default keys {@code k0..k<keys-1>} in turn with values {@code v<n>}, or
 * record {@code n} of any {@link Generator}, a batch every {@link #TICK}. {@link #holdAt} paces the
 * flow to a fault schedule. Keeps the model a counting application must reach: the number of
 * acknowledged records per key.
 *
 * <p>The producer is idempotent with {@code acks=all}, so a broker outage delays records but
 * neither loses nor duplicates them nor changes their order; a send that fails anyway makes
 * {@link #stop} throw, since the model would then be unknown. Thread-safe; {@link #close()} stops
 * without waiting.
 */
public final class SteadyInput implements AutoCloseable {

    static final Duration TICK = Duration.ofMillis(50);

    /** Record {@code n} of an input (n from 0): its key and value as bytes. Called on one thread. */
    @FunctionalInterface
    public interface Generator {
        KeyValue<byte[], byte[]> record(long n);
    }

    private final String topic;
    private final Generator generator;
    private final int perTick;
    private final long maxRecords;
    private final long deadlineNanos;
    private final KafkaProducer<byte[], byte[]> producer;
    private final ScheduledExecutorService ticker;
    private final Map<String, Long> acknowledged = new ConcurrentHashMap<>();
    private final AtomicLong sent = new AtomicLong();
    private final AtomicLong acked = new AtomicLong();
    private final AtomicLong hold = new AtomicLong(Long.MAX_VALUE);
    private final AtomicReference<Exception> failure = new AtomicReference<>();

    private SteadyInput(
            String bootstrap, String topic, Generator generator, int perSecond, long maxRecords, Duration maxTime) {
        this.topic = topic;
        this.generator = generator;
        this.perTick = Math.max(1, (int) (perSecond * TICK.toMillis() / 1000));
        this.maxRecords = maxRecords;
        this.deadlineNanos = System.nanoTime() + maxTime.toNanos();
        this.producer = new KafkaProducer<>(
                Map.of(
                        ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap,
                        ProducerConfig.ACKS_CONFIG, "all",
                        ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, "true",
                        ProducerConfig.LINGER_MS_CONFIG, "5"),
                new ByteArraySerializer(),
                new ByteArraySerializer());
        this.ticker = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "steady-input-" + topic);
            t.setDaemon(true);
            return t;
        });
    }

    /**
     * Starts producing about {@code perSecond} records a second to {@code topic} until
     * {@code maxRecords} were sent, {@code maxTime} passed or {@link #stop} is called: keys
     * {@code k0..k<keys-1>} in turn, values {@code v<n>}.
     */
    public static SteadyInput start(
            String bootstrap, String topic, int keys, int perSecond, long maxRecords, Duration maxTime) {
        return start(
                bootstrap,
                topic,
                n -> KeyValue.of(utf8("k" + (n % keys)), utf8("v" + n)),
                perSecond,
                maxRecords,
                maxTime);
    }

    /** As {@link #start(String, String, int, int, long, Duration)}, with record {@code n} from {@code generator}. */
    public static SteadyInput start(
            String bootstrap, String topic, Generator generator, int perSecond, long maxRecords, Duration maxTime) {
        SteadyInput input = new SteadyInput(bootstrap, topic, generator, perSecond, maxRecords, maxTime);
        input.ticker.scheduleAtFixedRate(input::tick, 0, TICK.toMillis(), TimeUnit.MILLISECONDS);
        return input;
    }

    /**
     * Sends no record from number {@code records} on until a later call raises the mark
     * ({@code Long.MAX_VALUE}: no mark, the default): a fault schedule lets the input run ahead
     * only so far, so that records flow during each fault however long the faults take.
     */
    public void holdAt(long records) {
        hold.set(records);
    }

    private void tick() {
        for (int i = 0; i < perTick; i++) {
            long n = sent.get();
            if (n >= maxRecords || n >= hold.get() || System.nanoTime() - deadlineNanos > 0 || failure.get() != null) {
                return;
            }
            KeyValue<byte[], byte[]> record = generator.record(n);
            String key = new String(record.key(), StandardCharsets.UTF_8);
            sent.incrementAndGet();
            producer.send(new ProducerRecord<>(topic, record.key(), record.value()), (metadata, e) -> {
                if (e != null) {
                    failure.compareAndSet(null, e);
                } else {
                    acknowledged.merge(key, 1L, Long::sum);
                    acked.incrementAndGet();
                }
            });
        }
    }

    /** Records acknowledged so far. */
    public long acknowledged() {
        return acked.get();
    }

    /** Records handed to the producer so far. */
    public long sent() {
        return sent.get();
    }

    /**
     * Stops sending, waits up to {@code timeout} for every record sent to be acknowledged, and
     * returns the count per key (sorted by key).
     *
     * @throws IllegalStateException if a send failed or not every record was acknowledged in time
     */
    public Map<String, Long> stop(Duration timeout) throws InterruptedException {
        finish(timeout);
        if (failure.get() != null) {
            throw new IllegalStateException(
                    "a record for " + topic + " may or may not have been written", failure.get());
        }
        if (acked.get() != sent.get()) {
            throw new IllegalStateException(
                    acked.get() + " of " + sent.get() + " records for " + topic + " acknowledged");
        }
        return new TreeMap<>(acknowledged);
    }

    /**
     * Stops producing, waits for the sends in flight, and returns how many were not acknowledged:
     * they may or may not have been written (a send can time out after the broker wrote it, as
     * when the broker holding the partition is killed). For callers that read the topic back to
     * check what it holds; {@link #stop} fails instead.
     */
    public long stopUncertain(Duration timeout) throws InterruptedException {
        finish(timeout);
        return sent.get() - acked.get();
    }

    private void finish(Duration timeout) throws InterruptedException {
        ticker.shutdown();
        if (!ticker.awaitTermination(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
            throw new IllegalStateException("the producer of " + topic + " did not stop within " + timeout);
        }
        producer.flush();
        producer.close(timeout);
    }

    @Override
    public void close() {
        ticker.shutdownNow();
        producer.close(Duration.ZERO);
    }

    private static byte[] utf8(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }
}
