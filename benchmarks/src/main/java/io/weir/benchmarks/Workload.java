package io.weir.benchmarks;

import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.atomic.AtomicReference;
import java.util.stream.Collectors;

import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.weir.testkit.KafkaTestClient;

/**
 * Writes the benchmark's input: {@code n} records with keys drawn from {@value #DISTINCT_KEYS}
 * distinct keys and 100-byte values of lower-case letters and digits, into a new topic of
 * {@value #PARTITIONS} partitions, with the same producer settings the systems under test use.
 *
 * <p>Keys and values come from a seeded generator, so every run of the program writes the same
 * bytes. Values are random rather than repeated, so that lz4 sees realistic, not trivially
 * compressible, batches.
 */
final class Workload {

    static final int PARTITIONS = 4;
    static final int DISTINCT_KEYS = 10_000;
    static final int VALUE_BYTES = 100;

    private static final Logger log = LoggerFactory.getLogger(Workload.class);
    /** 32 symbols: each takes 5 bits of a random long, so one long fills 12 bytes of a value. */
    private static final byte[] ALPHABET = "abcdefghijklmnopqrstuvwxyz012345".getBytes(StandardCharsets.US_ASCII);
    private static final long SEED = 42;

    private final KafkaTestClient client;

    Workload(KafkaTestClient client) {
        this.client = client;
    }

    /** Creates {@code topic}, writes {@code records} records to it, and returns its end offsets. */
    InputTopic create(String topic, long records) {
        client.createTopic(topic, PARTITIONS);
        long started = System.nanoTime();
        write(topic, records);
        InputTopic input = new InputTopic(topic, endOffsets(topic));
        if (input.records() != records) {
            throw new IllegalStateException(topic + " holds " + input.records() + " records, expected " + records);
        }
        log.info("Wrote {} records to {} in {} s", records, topic,
                String.format("%.1f", (System.nanoTime() - started) / 1e9));
        return input;
    }

    private void write(String topic, long records) {
        Map<String, Object> settings = new HashMap<>(ClientSettings.producer());
        settings.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, client.bootstrapServers());
        settings.put(ProducerConfig.ACKS_CONFIG, "all");
        byte[][] keys = keys();
        SplittableRandom random = new SplittableRandom(SEED);
        AtomicReference<Exception> failure = new AtomicReference<>();
        try (KafkaProducer<byte[], byte[]> producer = new KafkaProducer<>(settings, new ByteArraySerializer(),
                new ByteArraySerializer())) {
            for (long i = 0; i < records; i++) {
                if (failure.get() != null) {
                    break;
                }
                byte[] key = keys[random.nextInt(DISTINCT_KEYS)];
                producer.send(new ProducerRecord<>(topic, key, value(random)), (metadata, e) -> {
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

    private static byte[][] keys() {
        byte[][] keys = new byte[DISTINCT_KEYS][];
        for (int i = 0; i < DISTINCT_KEYS; i++) {
            keys[i] = String.format("key-%05d", i).getBytes(StandardCharsets.US_ASCII);
        }
        return keys;
    }

    private static byte[] value(SplittableRandom random) {
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

    private Map<TopicPartition, Long> endOffsets(String topic) {
        Map<TopicPartition, OffsetSpec> request = client.describePartitions(topic).stream()
                .collect(Collectors.toMap(p -> new TopicPartition(topic, p.partition()), p -> OffsetSpec.latest()));
        try {
            return client.admin().listOffsets(request).all().get().entrySet().stream()
                    .collect(Collectors.toMap(Map.Entry::getKey, e -> e.getValue().offset()));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("Interrupted while reading end offsets of " + topic, e);
        } catch (ExecutionException e) {
            throw new IllegalStateException("Cannot read end offsets of " + topic, e.getCause());
        }
    }
}
