package io.weir.benchmarks.input;

import io.weir.benchmarks.KafkaClients;
import io.weir.common.KeyValue;
import io.weir.common.internal.Deadline;
import io.weir.common.internal.Poll;
import io.weir.testkit.KafkaTestClient;
import io.weir.testkit.SteadyInput;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.BitSet;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.LongFunction;
import java.util.function.Supplier;
import java.util.stream.Collectors;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.config.TopicConfig;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Writes the benchmark's topics, with the same producer settings the systems under test use,
 * without transactions, into new topics of {@value #PARTITIONS} partitions:
 *
 * <ul>
 *   <li>an input: {@code n} records with keys drawn uniformly from a set of distinct keys
 *       ({@code key-00000} ...; 10,000 by default) and 100-byte values of lower-case letters and
 *       digits;</li>
 *   <li>a changelog for the restore workload: a compacted topic holding each of {@code n} distinct
 *       keys once, with a 100-byte value, partitioned by the default partitioner like the input, so
 *       each key sits in the partition whose task owns it;</li>
 *   <li>an input of distinct keys for the restart and memory workloads: each of {@code n} keys once,
 *       as in the changelog but in an ordinary topic, and batches of further records of some of
 *       those keys appended to it; the scaling workloads write the same into a topic of theirs
 *       ({@link #fillDistinct}) and then live traffic ({@link #liveTraffic});</li>
 *   <li>a windowed input for {@code window-count-10s}: the same keys and values as the input above
 *       (same seed, same draws), but with event-time timestamps that advance steadily and each
 *       record sent to its key's partition explicitly, as its {@link WindowModel} says; the model
 *       then holds the count of every key in every window.</li>
 * </ul>
 *
 * <p>Keys and values come from a seeded generator, so every run of the program writes the same
 * bytes; with 10,000 keys the input is byte for byte the one of the stateless workload. Values are
 * random rather than repeated, so that lz4 sees realistic, not trivially compressible, batches.
 */
public final class Workload {

    public static final int PARTITIONS = 4;
    static final int DISTINCT_KEYS = 10_000;
    public static final int VALUE_BYTES = 100;

    private static final Logger log = LoggerFactory.getLogger(Workload.class);
    /** 32 symbols: each takes 5 bits of a random long, so one long fills 12 bytes of a value. */
    private static final byte[] ALPHABET = "abcdefghijklmnopqrstuvwxyz012345".getBytes(StandardCharsets.US_ASCII);

    private static final long SEED = 42;
    /** How often the trickle runs its caller's check. */
    private static final Duration TRICKLE_CHECK = Duration.ofMillis(20);

    private final KafkaTestClient client;

    public Workload(KafkaTestClient client) {
        this.client = client;
    }

    /** Creates {@code topic} with {@code records} records over {@value #DISTINCT_KEYS} keys. */
    InputTopic create(String topic, long records) {
        return create(topic, records, DISTINCT_KEYS);
    }

    /** Creates {@code topic}, writes {@code records} records over {@code distinctKeys} keys to it, and returns it. */
    public InputTopic create(String topic, long records, int distinctKeys) {
        createTopic(client, topic, PARTITIONS, Map.of());
        long started = System.nanoTime();
        long used = write(topic, records, distinctKeys);
        InputTopic input = new InputTopic(topic, endOffsets(topic), used);
        if (input.records() != records) {
            throw new IllegalStateException(topic + " holds " + input.records() + " records, expected " + records);
        }
        log.info(
                "Wrote {} records ({} distinct keys) to {} in {} s",
                records,
                used,
                topic,
                String.format("%.1f", (System.nanoTime() - started) / 1e9));
        return input;
    }

    /**
     * Creates {@code topic}, writes {@code records} records over {@code distinctKeys} keys to it with
     * the timestamps of a {@link WindowModel} (starting a little over the input's event-time span
     * before now, aligned to {@code windowMs}), and returns it with the model.
     *
     * <p>The timestamps lie in the recent past rather than at a fixed instant, so that no topic of
     * the run (input, output, changelogs: retention by time, 7 days by default) holds records the
     * broker would consider expired; keys and values are the same bytes every time.
     */
    public WindowedInput createWindowed(String topic, long records, int distinctKeys, long windowMs) {
        long spanMs = records / WindowModel.RECORDS_PER_MS;
        long base = Math.floorDiv(System.currentTimeMillis() - spanMs - 60_000, windowMs) * windowMs;
        WindowModel model = new WindowModel(base, windowMs, records, distinctKeys, PARTITIONS);
        createTopic(client, topic, PARTITIONS, Map.of());
        long started = System.nanoTime();
        byte[][] keys = keys(distinctKeys);
        BitSet seen = new BitSet(distinctKeys);
        SplittableRandom random = new SplittableRandom(SEED);
        send(topic, records, i -> {
            int k = random.nextInt(distinctKeys); // the key first, as in the other inputs
            seen.set(k);
            model.add(i, k);
            return new ProducerRecord<>(topic, model.partition(k), model.timestamp(i), keys[k], value(random));
        });
        InputTopic input = new InputTopic(topic, endOffsets(topic), seen.cardinality());
        if (input.records() != records) {
            throw new IllegalStateException(topic + " holds " + input.records() + " records, expected " + records);
        }
        log.info(
                "Wrote {} records ({} distinct keys) to {} in {} s: {}",
                records,
                input.distinctKeys(),
                topic,
                String.format("%.1f", (System.nanoTime() - started) / 1e9),
                model);
        return new WindowedInput(input, model);
    }

    /**
     * Creates the compacted topic {@code topic} and writes each of {@code keys} distinct keys to it
     * once, with a 100-byte value: a store's changelog as the store would have written it.
     */
    public void createChangelog(String topic, long keys) {
        createTopic(
                client,
                topic,
                PARTITIONS,
                Map.of(TopicConfig.CLEANUP_POLICY_CONFIG, TopicConfig.CLEANUP_POLICY_COMPACT));
        writeEachKeyOnce(topic, keys);
        log.info("Wrote a changelog of {} keys to {}", keys, topic);
    }

    /**
     * Creates {@code topic} and writes each of {@code keys} distinct keys to it once, in key order,
     * with a 100-byte value (the same bytes as {@link #createChangelog}); returns it.
     */
    public InputTopic createDistinct(String topic, long keys) {
        createTopic(client, topic, PARTITIONS, Map.of());
        writeEachKeyOnce(topic, keys);
        InputTopic input = new InputTopic(topic, endOffsets(topic), keys);
        log.info("Wrote an input of {} distinct keys, one record each, to {}", keys, topic);
        return input;
    }

    /**
     * Writes each of {@code keys} distinct keys once, in key order, with a 100-byte value (the bytes
     * of {@link #createDistinct}) to {@code topic}, which exists and is empty (the scaling workloads
     * create it before their instances form a group); returns it.
     */
    public InputTopic fillDistinct(String topic, long keys) {
        writeEachKeyOnce(topic, keys);
        InputTopic input = new InputTopic(topic, endOffsets(topic), keys);
        log.info("Wrote {} distinct keys, one record each, to {}", keys, topic);
        return input;
    }

    /**
     * Appends one record with a new 100-byte value for each of {@code keyIndexes} (indexes into the
     * {@code keys} distinct keys of {@link #createDistinct}) to {@code topic}.
     */
    public void append(String topic, long[] keyIndexes, long keys) {
        int digits = keyDigits(keys);
        SplittableRandom random = new SplittableRandom(SEED + 1);
        send(topic, keyIndexes.length, i -> key(keyIndexes[(int) i], digits), () -> value(random));
    }

    /**
     * Sends {@code recordsPerSecond} records a second to {@code topic} for {@code duration}: steady
     * live traffic, keyed {@code tick-0} ... {@code tick-99} (outside the {@code key-} key set), with
     * 100-byte values; runs {@code check} every 20 ms (it may throw to stop) and returns once
     * every record is acknowledged, with their number.
     */
    public long trickle(String topic, Duration duration, int recordsPerSecond, Runnable check)
            throws InterruptedException {
        SplittableRandom random = new SplittableRandom(SEED + 2);
        SteadyInput ticks = SteadyInput.to(topic, KafkaClients.inputProducer(client.bootstrapServers()))
                .named("trickle")
                .records(n -> KeyValue.of(("tick-" + n % 100).getBytes(StandardCharsets.US_ASCII), value(random)))
                .perSecond(recordsPerSecond)
                .start();
        try (ticks) {
            Deadline end = Deadline.after(duration);
            Poll.until(
                    () -> {
                        check.run();
                        return end.expired() || ticks.failure().isPresent();
                    },
                    duration,
                    TRICKLE_CHECK);
        }
        if (ticks.failure().isPresent()) {
            throw new IllegalStateException(
                    "Cannot write to " + topic, ticks.failure().get());
        }
        return ticks.sent();
    }

    /**
     * Live traffic at {@code rate} records a second for the scaling workloads, until closed: keys
     * drawn uniformly (seeded) from the {@code keys} distinct keys of {@link #fillDistinct}, so the
     * state's keys are updated and, through the default partitioner, every partition gets its share
     * (about {@code rate / partitions} a second); 100-byte values, the benchmark's producer settings,
     * {@code acks=all}.
     */
    public static SteadyInput liveTraffic(String bootstrapServers, String topic, long keys, int rate) {
        if (keys <= 0) {
            throw new IllegalArgumentException("live traffic needs keys");
        }
        int digits = keyDigits(keys);
        SplittableRandom random = new SplittableRandom(SEED + 3); // the other inputs use SEED, +1 and +2
        // The key first, then the value, from one generator: one sender thread draws both.
        return SteadyInput.to(topic, KafkaClients.inputProducer(bootstrapServers))
                .records(n -> KeyValue.of(key(random.nextLong(keys), digits), value(random)))
                .perSecond(rate)
                .start();
    }

    /** {@code keys} distinct keys, each once, with seeded values; checks the topic holds exactly that many. */
    private void writeEachKeyOnce(String topic, long keys) {
        long started = System.nanoTime();
        int digits = keyDigits(keys);
        SplittableRandom random = new SplittableRandom(SEED);
        send(topic, keys, i -> key(i, digits), () -> value(random));
        long written =
                endOffsets(topic).values().stream().mapToLong(Long::longValue).sum();
        if (written != keys) {
            throw new IllegalStateException(topic + " holds " + written + " records, expected " + keys);
        }
        log.info(
                "  {} keys written to {} in {} s",
                keys,
                topic,
                String.format("%.1f", (System.nanoTime() - started) / 1e9));
    }

    /** Writes the records; returns how many distinct keys occur. */
    private long write(String topic, long records, int distinctKeys) {
        if (records == 0) {
            return 0; // the restore workload's empty input
        }
        byte[][] keys = keys(distinctKeys);
        BitSet seen = new BitSet(distinctKeys);
        SplittableRandom random = new SplittableRandom(SEED);
        send(
                topic,
                records,
                i -> {
                    int k = random.nextInt(distinctKeys);
                    seen.set(k);
                    return keys[k];
                },
                () -> value(random));
        return seen.cardinality();
    }

    /** Sends {@code records} records, the key of record i from {@code key}, and waits until all are acknowledged. */
    private void send(String topic, long records, LongFunction<byte[]> key, Supplier<byte[]> value) {
        send(topic, records, i -> {
            byte[] k = key.apply(i); // the key first: the stateless input draws key, then value
            return new ProducerRecord<>(topic, k, value.get());
        });
    }

    /** Sends {@code records} records, record i from {@code record}, and waits until all are acknowledged. */
    private void send(String topic, long records, LongFunction<ProducerRecord<byte[], byte[]>> record) {
        AtomicReference<Exception> failure = new AtomicReference<>();
        try (KafkaProducer<byte[], byte[]> producer = KafkaClients.inputProducer(client.bootstrapServers())) {
            for (long i = 0; i < records; i++) {
                if (failure.get() != null) {
                    break;
                }
                producer.send(record.apply(i), (metadata, e) -> {
                    if (e != null) {
                        failure.compareAndSet(null, e);
                    }
                });
                if ((i + 1) % 1_000_000 == 0) {
                    log.info("  {} / {} records sent to {}", i + 1, records, topic);
                }
            }
            producer.flush();
        }
        if (failure.get() != null) {
            throw new IllegalStateException("Cannot write the input topic " + topic, failure.get());
        }
    }

    /** {@code key-00000} ... with at least five digits, more when {@code n} needs them. */
    private static byte[][] keys(int n) {
        int digits = keyDigits(n);
        byte[][] keys = new byte[n][];
        for (int i = 0; i < n; i++) {
            keys[i] = key(i, digits);
        }
        return keys;
    }

    /** The digits of the key names of a set of {@code n} keys: at least five, more when {@code n} needs them. */
    public static int keyDigits(long n) {
        return Math.max(5, Long.toString(Math.max(0, n - 1)).length());
    }

    /** {@code key-} and {@code i} with leading zeros to {@code digits} digits, in ASCII. */
    public static byte[] key(long i, int digits) {
        String number = Long.toString(i);
        byte[] key = new byte[4 + Math.max(digits, number.length())];
        key[0] = 'k';
        key[1] = 'e';
        key[2] = 'y';
        key[3] = '-';
        int pad = key.length - 4 - number.length();
        for (int j = 0; j < pad; j++) {
            key[4 + j] = '0';
        }
        for (int j = 0; j < number.length(); j++) {
            key[4 + pad + j] = (byte) number.charAt(j);
        }
        return key;
    }

    /** A 100-byte value of lower-case letters and digits from {@code random}. */
    static byte[] value(SplittableRandom random) {
        byte[] value = new byte[VALUE_BYTES];
        long bits = 0;
        for (int i = 0; i < VALUE_BYTES; i++) {
            if (i % 12 == 0) {
                bits = random.nextLong();
            }
            value[i] = ALPHABET[(int) (bits & 31)];
            bits >>>= 5;
        }
        return value;
    }

    /**
     * Creates {@code topic} and returns once its leader accepts requests. {@code createTopics}
     * returns when the cluster's metadata lists a leader, which can be a moment before the broker
     * has taken the partition over: once, a producer sending at once got {@code NOT_LEADER_OR_FOLLOWER}
     * and then, idempotent, stalled on {@code OUT_OF_ORDER_SEQUENCE_NUMBER} until its batches expired.
     * Listing the end offsets goes to the leader and is retried until it answers.
     */
    public static void createTopic(KafkaTestClient client, String topic, int partitions, Map<String, String> configs) {
        client.createTopic(topic, partitions, configs);
        endOffsets(client, topic);
    }

    private Map<TopicPartition, Long> endOffsets(String topic) {
        return endOffsets(client, topic);
    }

    /** The end offsets of every partition of {@code topic}. */
    public static Map<TopicPartition, Long> endOffsets(KafkaTestClient client, String topic) {
        Map<TopicPartition, OffsetSpec> request = client.describePartitions(topic).stream()
                .collect(Collectors.toMap(p -> new TopicPartition(topic, p.partition()), p -> OffsetSpec.latest()));
        try {
            return client.admin().listOffsets(request).all().get().entrySet().stream()
                    .collect(Collectors.toMap(
                            Map.Entry::getKey, e -> e.getValue().offset()));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("Interrupted while reading end offsets of " + topic, e);
        } catch (ExecutionException e) {
            throw new IllegalStateException("Cannot read end offsets of " + topic, e.getCause());
        }
    }
}
