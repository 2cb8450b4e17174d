package io.weir.testing;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.PartitionInfo;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;

/**
 * The exactly-once check of {@link EosAggregatesApp}'s outputs against an {@link AggregatesWorkload}:
 * a {@code read_committed} reader on a thread of its own tails the input, echo and aggregates
 * topics from their beginning while a test runs, and checks every record as it comes. Per key,
 * the echo must be the key's input values in input order and the aggregates their running
 * {@link Aggregate}s, each exactly once: a lost, duplicated or reordered record shows as the
 * first position where a key's sequence differs from the model, named with the input record it
 * should have been and classified (a repeat, a gap, something else). The input itself is checked
 * the same way, so that a fault of the test's producer is not blamed on the application.
 *
 * <p>Memory: a few words per key, nothing per record. Thread-safe: the getters may be called from
 * any thread while the reader runs; {@link #finish} reads each topic to its end offsets and stops
 * the reader, after the writers have stopped, so that a late duplicate cannot go unseen.
 */
public final class AggregatesCheck implements AutoCloseable {

    private static final int MAX_REPORTED = 30;
    private static final Duration POLL = Duration.ofMillis(200);

    private final AggregatesWorkload workload;
    private final Map<String, Sequences> byTopic;
    private final KafkaConsumer<byte[], byte[]> consumer;
    private final Thread reader;
    private final List<String> problems = new ArrayList<>(); // guarded by itself
    private final AtomicLong problemCount = new AtomicLong();
    private final AtomicLong lastRecordNanos = new AtomicLong(System.nanoTime());
    private final AtomicReference<Throwable> readerFailure = new AtomicReference<>();
    private volatile boolean running = true;
    private volatile boolean finishing;

    private AggregatesCheck(
            String bootstrap, AggregatesWorkload workload, String input, String echo, String aggregates) {
        this.workload = workload;
        this.byTopic = Map.of(
                input,
                new Sequences("input", false),
                echo,
                new Sequences("echo", false),
                aggregates,
                new Sequences("aggregates", true));
        this.consumer = new KafkaConsumer<>(
                Map.of(
                        ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap,
                        ConsumerConfig.CLIENT_ID_CONFIG, "aggregates-check-" + UUID.randomUUID(),
                        ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed",
                        ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, "false",
                        ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest",
                        ConsumerConfig.MAX_POLL_RECORDS_CONFIG, "5000"),
                new ByteArrayDeserializer(),
                new ByteArrayDeserializer());
        this.reader = new Thread(this::read, "aggregates-check");
        this.reader.setDaemon(true);
    }

    /** Starts reading the three topics (which must exist) from their beginning. */
    public static AggregatesCheck start(
            String bootstrap, AggregatesWorkload workload, String input, String echo, String aggregates) {
        AggregatesCheck check = new AggregatesCheck(bootstrap, workload, input, echo, aggregates);
        check.reader.start();
        return check;
    }

    /** True once every key has all its records in every topic (checked or not: see {@link #problems}). */
    public boolean complete() {
        failIfReaderDied();
        return byTopic.values().stream().allMatch(s -> s.keysDone.get() == workload.keys());
    }

    /** Committed echo and aggregate records read so far: what the application has delivered. */
    public long outputsRead() {
        return byTopic.values().stream()
                .filter(s -> !s.name.equals("input"))
                .mapToLong(s -> s.readTotal.get())
                .sum();
    }

    /** Nanos ({@link System#nanoTime()}) of the latest record read from any topic. */
    public long lastRecordNanos() {
        return lastRecordNanos.get();
    }

    /** The first problems found (at most 30) and how many there were in all; empty when all is right so far. */
    public List<String> problems() {
        synchronized (problems) {
            List<String> copy = new ArrayList<>(problems);
            if (problemCount.get() > problems.size()) {
                copy.add("... " + (problemCount.get() - problems.size()) + " more");
            }
            return copy;
        }
    }

    /**
     * After {@link #finish}: the keys whose records are not all there (at most 10 per topic), with
     * the first input record missing, e.g. {@code echo k12: 3 of 7, missing from #3 (input record
     * 4711)}; empty when {@link #complete}.
     */
    public List<String> missing() {
        if (reader.isAlive()) {
            throw new IllegalStateException("missing() is known once finish() has returned");
        }
        List<String> missing = new ArrayList<>();
        for (String name : List.of("input", "echo", "aggregates")) {
            Sequences s = byTopic.values().stream()
                    .filter(x -> x.name.equals(name))
                    .findFirst()
                    .orElseThrow();
            int listed = 0;
            for (int k = 0; k < workload.keys(); k++) {
                int read = s.readPerKey[k];
                int count = workload.countOf(k);
                if (read < count && listed++ < 10) {
                    missing.add(name + " " + AggregatesWorkload.keyName(k) + ": " + read + " of " + count
                            + ", missing from #" + read + " (input record " + workload.recordNumber(k, read) + ")");
                }
            }
            if (listed > 10) {
                missing.add(name + ": ... " + (listed - 10) + " more keys");
            }
        }
        return missing;
    }

    /** Records read and keys complete per topic, e.g. for a progress line or a failure message. */
    public String progress() {
        StringBuilder b = new StringBuilder();
        for (String name : List.of("input", "echo", "aggregates")) {
            Sequences s = byTopic.values().stream()
                    .filter(x -> x.name.equals(name))
                    .findFirst()
                    .orElseThrow();
            b.append(name)
                    .append(' ')
                    .append(s.readTotal.get())
                    .append('/')
                    .append(workload.records())
                    .append(" (keys complete ")
                    .append(s.keysDone.get())
                    .append('/')
                    .append(workload.keys())
                    .append("), ");
        }
        return b.append("problems ").append(problemCount.get()).toString();
    }

    /**
     * Reads every topic up to the end offsets it has now (read_committed: up to the last stable
     * offset) and stops the reader. Call it when no writer is left, so that nothing committed
     * later can be missed; then {@link #complete} and {@link #problems} are final.
     *
     * @throws AssertionError if the ends are not reached within {@code timeout}
     */
    public void finish(Duration timeout) throws InterruptedException {
        finishing = true;
        reader.join(timeout.toMillis());
        if (reader.isAlive()) {
            running = false;
            reader.join(TimeUnit.SECONDS.toMillis(10));
            throw new AssertionError(
                    "could not read the topics to their end within " + timeout.toMillis() + " ms; " + progress());
        }
        failIfReaderDied();
    }

    @Override
    public void close() {
        running = false;
        try {
            reader.join(TimeUnit.SECONDS.toMillis(10));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private void failIfReaderDied() {
        Throwable t = readerFailure.get();
        if (t != null) {
            throw new IllegalStateException("the reader of the outputs failed: " + t, t);
        }
    }

    private void read() {
        try (consumer) {
            List<TopicPartition> partitions = new ArrayList<>();
            for (String topic : byTopic.keySet()) {
                for (PartitionInfo p : consumer.partitionsFor(topic, Duration.ofSeconds(60))) {
                    partitions.add(new TopicPartition(topic, p.partition()));
                }
            }
            consumer.assign(partitions);
            consumer.seekToBeginning(partitions);
            Map<TopicPartition, Long> end = null;
            while (running) {
                if (finishing && end == null) {
                    end = consumer.endOffsets(partitions, Duration.ofSeconds(60));
                }
                if (end != null && reachedEnd(partitions, end)) {
                    return;
                }
                for (ConsumerRecord<byte[], byte[]> r : consumer.poll(POLL)) {
                    byTopic.get(r.topic()).accept(r);
                    lastRecordNanos.set(System.nanoTime());
                }
            }
        } catch (Throwable t) {
            readerFailure.set(t);
        }
    }

    private boolean reachedEnd(List<TopicPartition> partitions, Map<TopicPartition, Long> end) {
        for (TopicPartition tp : partitions) {
            if (consumer.position(tp) < end.get(tp)) {
                return false;
            }
        }
        return true;
    }

    private void report(String problem) {
        problemCount.incrementAndGet();
        synchronized (problems) {
            if (problems.size() < MAX_REPORTED) {
                problems.add(problem);
            }
        }
    }

    /** The records of one topic per key, checked against the model; used by the reader thread only. */
    private final class Sequences {
        final String name;
        final boolean aggregates;
        final int[] readPerKey = new int[workload.keys()];
        final boolean[] broken = new boolean[workload.keys()];
        final Aggregate[] current = new Aggregate[workload.keys()];
        final AtomicLong readTotal = new AtomicLong();
        final AtomicLong keysDone = new AtomicLong();

        Sequences(String name, boolean aggregates) {
            this.name = name;
            this.aggregates = aggregates;
        }

        void accept(ConsumerRecord<byte[], byte[]> r) {
            readTotal.incrementAndGet();
            String keyName = r.key() == null ? null : new String(r.key(), StandardCharsets.UTF_8);
            int k = workload.keyIndex(keyName);
            if (k < 0) {
                report(name + ": a record with unknown key " + keyName + " at " + where(r));
                return;
            }
            int j = readPerKey[k]++;
            int count = workload.countOf(k);
            if (j == count - 1) {
                keysDone.incrementAndGet();
            }
            if (j >= count) {
                report(name + " " + keyName + ": record #" + j + " (" + describe(r) + ") at " + where(r)
                        + " but the key has only " + count + " inputs: a duplicate");
                return;
            }
            if (broken[k]) {
                return; // its first difference is reported; what follows it is noise
            }
            String problem = aggregates ? checkAggregate(k, j, r) : checkValue(k, j, r);
            if (problem != null) {
                broken[k] = true;
                report(name + " " + keyName + " #" + j + " (input record " + workload.recordNumber(k, j) + ") at "
                        + where(r) + ": " + problem);
            }
        }

        private String checkValue(int k, int j, ConsumerRecord<byte[], byte[]> r) {
            if (r.value() == null || r.value().length != 8) {
                return "a value of " + (r.value() == null ? "null" : r.value().length + " bytes") + ", not 8";
            }
            long got = ByteBuffer.wrap(r.value()).getLong();
            long expected = workload.valueOf(k, j);
            if (got == expected) {
                return null;
            }
            String what = "got " + got + ", expected " + expected;
            if (j > 0 && got == workload.valueOf(k, j - 1)) {
                return what + ": repeats #" + (j - 1) + " (a duplicate)";
            }
            for (int d = 1; d <= 5 && j + d < workload.countOf(k); d++) {
                if (got == workload.valueOf(k, j + d)) {
                    return what + ": that is #" + (j + d) + " (" + d + " record(s) lost or reordered)";
                }
            }
            return what;
        }

        private String checkAggregate(int k, int j, ConsumerRecord<byte[], byte[]> r) {
            if (r.value() == null || r.value().length != 32) {
                return "a value of " + (r.value() == null ? "null" : r.value().length + " bytes") + ", not 32";
            }
            Aggregate got = Aggregate.fromBytes(r.value());
            Aggregate expected = Aggregate.add(current[k], workload.valueOf(k, j));
            if (got.equals(expected)) {
                current[k] = expected;
                return null;
            }
            String what = "got " + got + ", expected " + expected;
            if (got.equals(current[k])) {
                return what + ": repeats #" + (j - 1) + " (a duplicate)";
            }
            Aggregate ahead = expected;
            for (int d = 1; d <= 5 && j + d < workload.countOf(k); d++) {
                ahead = ahead.plus(workload.valueOf(k, j + d));
                if (got.equals(ahead)) {
                    return what + ": that is #" + (j + d) + " (" + d + " input(s) missing before it)";
                }
            }
            if (got.count() != expected.count()) {
                return what + ": counted " + got.count() + " inputs, not " + expected.count();
            }
            return what;
        }

        private String describe(ConsumerRecord<byte[], byte[]> r) {
            if (r.value() != null && r.value().length == 8) {
                return "value " + ByteBuffer.wrap(r.value()).getLong();
            }
            if (r.value() != null && r.value().length == 32) {
                return "aggregate " + Aggregate.fromBytes(r.value());
            }
            return r.value() == null ? "null" : r.value().length + " bytes";
        }
    }

    private static String where(ConsumerRecord<?, ?> r) {
        return r.topic() + "-" + r.partition() + "@" + r.offset();
    }
}
