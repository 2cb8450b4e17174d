package io.weir.testkit;

import io.weir.common.KeyValue;
import io.weir.common.internal.Deadline;
import io.weir.common.internal.Worker;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.clients.producer.ProducerRecord;

/**
 * Records flowing into a topic at a steady rate while a test or a benchmark does its work: record
 * {@code n} of a {@link Generator} is due {@code n / rate} s after the start (a sender held up by
 * its producer catches up; records due within 10 ms go out together), on a thread of its own, so the rate does not drift with the machine's
 * load. The fault tests and the benchmarks' live traffic both run on it.
 *
 * <p>Optionally bounded in count and in time ({@link Builder#atMost}); {@link #holdAt} paces the
 * flow to a fault schedule (the schedule resumes from the release, it does not burst to make up
 * for the hold). With {@link Builder#countingPerKey} it keeps the model a counting application must
 * reach, the number of acknowledged records per key, which {@link #stop} returns.
 *
 * <p>With an idempotent {@code acks=all} producer (as {@link #start(String, String, Generator, int,
 * long, Duration)} makes) a broker outage delays records but neither loses nor duplicates them nor
 * changes their order; a send that fails anyway makes {@link #stop} throw, since the model would
 * then be unknown.
 *
 * <p>Threads: every method may be called from any thread; the generator is called on the sender's
 * thread only.
 */
public final class SteadyInput implements AutoCloseable {

    /** How long a held or finished sender waits before it looks at its mark again. */
    private static final Duration IDLE = Duration.ofMillis(50);

    /**
     * The shortest wait for the next record: the records due meanwhile then go out together. A
     * wake-up per record (thousands a second in the fault tests) cost the tests' two shared cores
     * more than the brokers and instances could spare; the rate is the same, 10 ms at the most
     * later per record.
     */
    private static final long MIN_WAIT_NANOS = Duration.ofMillis(10).toNanos();
    /** How long {@link #close()} waits for the records in flight to be acknowledged. */
    private static final Duration CLOSE_TIMEOUT = Duration.ofSeconds(30);

    /** Record {@code n} of an input (n from 0): its key and value as bytes. Called on one thread. */
    @FunctionalInterface
    public interface Generator {
        KeyValue<byte[], byte[]> record(long n);
    }

    private final Producer<byte[], byte[]> producer;
    private final String topic;
    private final Generator generator;
    private final long intervalNanos;
    private final long maxRecords;
    private final Deadline deadline;
    private final Map<String, Long> perKey;
    private final AtomicLong sent = new AtomicLong();
    private final AtomicLong acked = new AtomicLong();
    private final AtomicLong hold = new AtomicLong(Long.MAX_VALUE);
    private final AtomicReference<Throwable> failure = new AtomicReference<>();
    /** When the next record is due (the sender's thread only). */
    private long nextDue = System.nanoTime();

    private final Worker sender;

    private SteadyInput(Builder b) {
        this.producer = b.producer;
        this.topic = b.topic;
        this.generator = b.generator;
        this.intervalNanos = 1_000_000_000L / b.perSecond;
        this.maxRecords = b.maxRecords;
        this.deadline = Deadline.after(b.maxTime);
        this.perKey = b.countingPerKey ? new ConcurrentHashMap<>() : null;
        // Not interrupted: the producer's flush on the way out must not see an interrupt.
        this.sender = Worker.named(b.name)
                .interruptOnStop(false)
                .joinTimeout(CLOSE_TIMEOUT)
                .onFailure(e -> failure.compareAndSet(null, e))
                .onExit(this::flushAndClose)
                .loop(this::sendWhenDue);
    }

    /**
     * An input to {@code topic} through {@code producer}, which it owns from {@link Builder#start}
     * on: set the records and the rate, then start it.
     */
    public static Builder to(String topic, Producer<byte[], byte[]> producer) {
        return new Builder(topic, producer);
    }

    /**
     * Starts producing about {@code perSecond} records a second to {@code topic} until
     * {@code maxRecords} were sent, {@code maxTime} passed or {@link #stop} is called: keys
     * {@code k0..k<keys-1>} in turn, values {@code v<n>}, counted per key.
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

    /**
     * As {@link #start(String, String, int, int, long, Duration)}, with record {@code n} from
     * {@code generator}, through an idempotent producer with {@code acks=all}.
     */
    public static SteadyInput start(
            String bootstrap, String topic, Generator generator, int perSecond, long maxRecords, Duration maxTime) {
        return to(topic, new KafkaClients(bootstrap, Map.of()).idempotentProducer())
                .named("steady-input-" + topic)
                .records(generator)
                .perSecond(perSecond)
                .atMost(maxRecords, maxTime)
                .countingPerKey()
                .start();
    }

    /**
     * Sends no record from number {@code records} on until a later call raises the mark
     * ({@code Long.MAX_VALUE}: no mark, the default): a fault schedule lets the input run ahead
     * only so far, so that records flow during each fault however long the faults take.
     */
    public void holdAt(long records) {
        hold.set(records);
    }

    /** Records handed to the producer so far. */
    public long sent() {
        return sent.get();
    }

    /** Records acknowledged so far. */
    public long acknowledged() {
        return acked.get();
    }

    /** Why sending stopped by itself, if it did: a send that failed. */
    public Optional<Throwable> failure() {
        return Optional.ofNullable(failure.get());
    }

    /**
     * Stops sending, waits up to {@code timeout} for every record sent to be acknowledged, and
     * returns the count per key (sorted by key).
     *
     * @throws IllegalStateException if a send failed or not every record was acknowledged in time,
     *     or the input was not built {@link Builder#countingPerKey}
     */
    public Map<String, Long> stop(Duration timeout) throws InterruptedException {
        if (perKey == null) {
            throw new IllegalStateException("the input to " + topic + " does not count per key");
        }
        finish(timeout);
        if (failure.get() != null) {
            throw new IllegalStateException(
                    "a record for " + topic + " may or may not have been written", failure.get());
        }
        if (acked.get() != sent.get()) {
            throw new IllegalStateException(
                    acked.get() + " of " + sent.get() + " records for " + topic + " acknowledged");
        }
        return new TreeMap<>(perKey);
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

    /** Stops sending and returns once the records sent so far are acknowledged (or 30 s passed). */
    @Override
    public void close() {
        sender.close();
    }

    private void finish(Duration timeout) throws InterruptedException {
        if (!sender.stopAndJoin(timeout)) {
            throw new IllegalStateException("the producer of " + topic + " did not stop within " + timeout);
        }
    }

    /** Record {@code n} is due {@link #intervalNanos} after record {@code n - 1}: waits for it, or sends it. */
    private void sendWhenDue(Worker self) throws InterruptedException {
        if (failure.get() != null) {
            self.stop(); // a send failed: its callback noted why
            return;
        }
        long n = sent.get();
        if (n >= maxRecords || n >= hold.get() || deadline.expired()) {
            self.pause(IDLE);
            nextDue = System.nanoTime(); // a released hold resumes the rate, it does not make up for the hold
            return;
        }
        long wait = nextDue - System.nanoTime();
        if (wait > 0) {
            self.pause(Duration.ofNanos(Math.max(wait, MIN_WAIT_NANOS))); // the schedule, not a hope
            return;
        }
        send(generator.record(n));
        sent.set(n + 1);
        nextDue += intervalNanos;
    }

    private void send(KeyValue<byte[], byte[]> record) {
        String key = perKey == null ? null : new String(record.key(), StandardCharsets.UTF_8);
        producer.send(new ProducerRecord<>(topic, record.key(), record.value()), (metadata, e) -> {
            if (e != null) {
                failure.compareAndSet(null, e);
                return;
            }
            if (key != null) {
                perKey.merge(key, 1L, Long::sum);
            }
            acked.incrementAndGet();
        });
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

    private static byte[] utf8(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    /** What an input sends and how fast: {@link #records} and {@link #perSecond} are required. */
    public static final class Builder {
        private final String topic;
        private final Producer<byte[], byte[]> producer;
        private String name = "steady-input";
        private Generator generator;
        private int perSecond;
        private long maxRecords = Long.MAX_VALUE;
        private Duration maxTime = Duration.ofDays(365);
        private boolean countingPerKey;

        private Builder(String topic, Producer<byte[], byte[]> producer) {
            this.topic = Objects.requireNonNull(topic, "topic");
            this.producer = Objects.requireNonNull(producer, "producer");
        }

        /** The sender thread's name ({@code steady-input} unless set). */
        public Builder named(String name) {
            this.name = Objects.requireNonNull(name, "name");
            return this;
        }

        /** Record {@code n} to send. */
        public Builder records(Generator generator) {
            this.generator = Objects.requireNonNull(generator, "generator");
            return this;
        }

        /** The rate, in records a second. */
        public Builder perSecond(int perSecond) {
            if (perSecond <= 0) {
                throw new IllegalArgumentException("steady input needs a positive rate");
            }
            this.perSecond = perSecond;
            return this;
        }

        /** Sends no more than {@code records} records and none once {@code time} passed (unbounded unless set). */
        public Builder atMost(long records, Duration time) {
            this.maxRecords = records;
            this.maxTime = Objects.requireNonNull(time, "time");
            return this;
        }

        /**
         * Counts the acknowledged records per key, for {@link SteadyInput#stop} (off unless set: a
         * benchmark's millions of keys would cost their memory for nothing).
         */
        public Builder countingPerKey() {
            this.countingPerKey = true;
            return this;
        }

        /** Starts sending; from here on the input owns the producer. */
        public SteadyInput start() {
            if (generator == null || perSecond == 0) {
                producer.close();
                throw new IllegalStateException("steady input needs its records and its rate");
            }
            return new SteadyInput(this);
        }
    }
}
