package io.weir.testing;

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
 * Records flowing into a topic at a modest, steady rate while a fault test does its work:
 * keys {@code k0..k<keys-1>} in turn, a batch every {@link #TICK}, bounded in count and in time.
 * Keeps the model a counting application must reach: the number of acknowledged records per key.
 *
 * <p>The producer is idempotent with {@code acks=all}, so a broker outage delays records but
 * neither loses nor duplicates them; a send that fails anyway makes {@link #stop} throw, since
 * the model would then be unknown. Thread-safe; {@link #close()} stops without waiting.
 */
public final class SteadyInput implements AutoCloseable {

    static final Duration TICK = Duration.ofMillis(50);

    private final String topic;
    private final int keys;
    private final int perTick;
    private final long maxRecords;
    private final long deadlineNanos;
    private final KafkaProducer<byte[], byte[]> producer;
    private final ScheduledExecutorService ticker;
    private final Map<String, Long> acknowledged = new ConcurrentHashMap<>();
    private final AtomicLong sent = new AtomicLong();
    private final AtomicLong acked = new AtomicLong();
    private final AtomicReference<Exception> failure = new AtomicReference<>();

    private SteadyInput(String bootstrap, String topic, int keys, int perSecond, long maxRecords, Duration maxTime) {
        this.topic = topic;
        this.keys = keys;
        this.perTick = Math.max(1, (int) (perSecond * TICK.toMillis() / 1000));
        this.maxRecords = maxRecords;
        this.deadlineNanos = System.nanoTime() + maxTime.toNanos();
        this.producer = new KafkaProducer<>(Map.of(
                ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap,
                ProducerConfig.ACKS_CONFIG, "all",
                ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, "true",
                ProducerConfig.LINGER_MS_CONFIG, "5"),
                new ByteArraySerializer(), new ByteArraySerializer());
        this.ticker = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "steady-input-" + topic);
            t.setDaemon(true);
            return t;
        });
    }

    /**
     * Starts producing about {@code perSecond} records a second to {@code topic} until
     * {@code maxRecords} were sent, {@code maxTime} passed or {@link #stop} is called.
     */
    public static SteadyInput start(String bootstrap, String topic, int keys, int perSecond, long maxRecords,
                                    Duration maxTime) {
        SteadyInput input = new SteadyInput(bootstrap, topic, keys, perSecond, maxRecords, maxTime);
        input.ticker.scheduleAtFixedRate(input::tick, 0, TICK.toMillis(), TimeUnit.MILLISECONDS);
        return input;
    }

    private void tick() {
        for (int i = 0; i < perTick; i++) {
            long n = sent.get();
            if (n >= maxRecords || System.nanoTime() - deadlineNanos > 0 || failure.get() != null) {
                return;
            }
            String key = "k" + (n % keys);
            sent.incrementAndGet();
            producer.send(new ProducerRecord<>(topic, key.getBytes(StandardCharsets.UTF_8),
                    ("v" + n).getBytes(StandardCharsets.UTF_8)), (metadata, e) -> {
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
        ticker.shutdown();
        if (!ticker.awaitTermination(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
            throw new IllegalStateException("the producer of " + topic + " did not stop within " + timeout);
        }
        producer.flush();
        producer.close(timeout);
        if (failure.get() != null) {
            throw new IllegalStateException("a record for " + topic + " may or may not have been written",
                    failure.get());
        }
        if (acked.get() != sent.get()) {
            throw new IllegalStateException(acked.get() + " of " + sent.get() + " records for " + topic
                    + " acknowledged");
        }
        return new TreeMap<>(acknowledged);
    }

    @Override
    public void close() {
        ticker.shutdownNow();
        producer.close(Duration.ZERO);
    }
}
