package io.weir.benchmarks;

import io.weir.benchmarks.systems.ClientSettings;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.Deserializer;

/**
 * Every Kafka client the benchmarks create in this JVM (the bare loop's, the inputs' writers, the
 * output's readers, the admin clients), made here so that what all of them share is set in one
 * place. The settings of the systems under test ({@link ClientSettings}) are the caller's; the
 * readers and writers around a run have theirs named here. Keys and values are byte arrays unless
 * a method says otherwise.
 */
public final class KafkaClients {

    private static final Duration CLOSE_TIMEOUT = Duration.ofSeconds(5);
    private static final Duration POSITION_TIMEOUT = Duration.ofSeconds(30);

    private KafkaClients() {}

    /** A consumer with exactly {@code settings}. */
    public static KafkaConsumer<byte[], byte[]> consumer(Map<String, Object> settings) {
        return consumer(settings, new ByteArrayDeserializer());
    }

    /** A consumer with exactly {@code settings}, its keys read by {@code keys}. */
    public static <K> KafkaConsumer<K, byte[]> consumer(Map<String, Object> settings, Deserializer<K> keys) {
        return new KafkaConsumer<>(settings, keys, new ByteArrayDeserializer());
    }

    /** A producer with exactly {@code settings}. */
    public static KafkaProducer<byte[], byte[]> producer(Map<String, Object> settings) {
        return new KafkaProducer<>(settings, new ByteArraySerializer(), new ByteArraySerializer());
    }

    /**
     * A producer of input: the systems' producer tuning ({@link ClientSettings#producer()}) and
     * {@code acks=all}, so that a record acknowledged is a record every system will read.
     */
    public static KafkaProducer<byte[], byte[]> inputProducer(String bootstrapServers) {
        Map<String, Object> settings = new HashMap<>(ClientSettings.producer());
        settings.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers);
        settings.put(ProducerConfig.ACKS_CONFIG, "all");
        return producer(settings);
    }

    /** An admin client of the cluster at {@code bootstrapServers}. */
    public static Admin admin(String bootstrapServers) {
        return Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers));
    }

    /**
     * A {@code read_committed} consumer without a group, for reading output as a downstream
     * consumer would: no auto-commit, {@code fetch.max.wait.ms} 50 ms (the broker answers a fetch
     * as soon as committed data is there; this bounds the wait otherwise).
     */
    public static KafkaConsumer<byte[], byte[]> readCommitted(String bootstrapServers) {
        return consumer(readCommittedSettings(bootstrapServers));
    }

    /** {@link #readCommitted}, for reading a whole topic off the clock: up to 10,000 records a poll. */
    public static KafkaConsumer<byte[], byte[]> readCommittedInBulk(String bootstrapServers) {
        Map<String, Object> settings = readCommittedSettings(bootstrapServers);
        settings.put(ConsumerConfig.MAX_POLL_RECORDS_CONFIG, 10_000);
        return consumer(settings);
    }

    /**
     * {@link #readCommitted}, assigned {@code partitions} and positioned at their current ends,
     * resolved now (not later, while a clock runs): it returns only what is written after this call.
     */
    public static KafkaConsumer<byte[], byte[]> readCommittedFromEnd(
            String bootstrapServers, List<TopicPartition> partitions) {
        KafkaConsumer<byte[], byte[]> consumer = readCommitted(bootstrapServers);
        try {
            consumer.assign(partitions);
            consumer.seekToEnd(partitions);
            partitions.forEach(p -> consumer.position(p, POSITION_TIMEOUT));
            return consumer;
        } catch (RuntimeException e) {
            consumer.close(CLOSE_TIMEOUT);
            throw e;
        }
    }

    private static Map<String, Object> readCommittedSettings(String bootstrapServers) {
        Map<String, Object> c = new HashMap<>();
        c.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers);
        c.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
        c.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
        c.put(ConsumerConfig.FETCH_MAX_WAIT_MS_CONFIG, 50);
        return c;
    }
}
