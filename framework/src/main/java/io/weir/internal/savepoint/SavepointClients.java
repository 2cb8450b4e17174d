package io.weir.internal.savepoint;

import io.weir.config.WeirConfig;
import io.weir.internal.cluster.ClientConfigs;
import io.weir.internal.config.ClientRole;
import io.weir.internal.config.KafkaClients;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;

/**
 * Kafka clients for the tools that take, read and restore savepoints, with the application's
 * client settings (security, SASL, TLS) and what these tools need on top: a group-less
 * read_committed consumer, an idempotent producer.
 */
final class SavepointClients {

    /**
     * How long a tool waits for one record it sent to be acknowledged: longer than the producer's
     * {@code delivery.timeout.ms} (2 minutes unless the application's settings say otherwise),
     * within which the producer settles every send itself.
     */
    static final Duration SEND_TIMEOUT = Duration.ofMinutes(5);

    private SavepointClients() {}

    static KafkaConsumer<byte[], byte[]> consumer(WeirConfig config, String role) {
        return KafkaClients.unmetered()
                .consumer(ClientRole.ofInstance(role + "-consumer"), consumerConfig(config, role));
    }

    /** The consumer's settings: the application's consumer settings with the tool's on top. */
    static Map<String, Object> consumerConfig(WeirConfig config, String role) {
        Map<String, Object> c = new HashMap<>(config.consumerOverrides());
        c.remove(ConsumerConfig.GROUP_ID_CONFIG);
        c.remove(ConsumerConfig.GROUP_INSTANCE_ID_CONFIG);
        c.put(ConsumerConfig.CLIENT_ID_CONFIG, config.applicationId() + "-" + role + "-consumer");
        c.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
        c.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
        c.put(ConsumerConfig.ALLOW_AUTO_CREATE_TOPICS_CONFIG, false);
        c.put(ConsumerConfig.MAX_PARTITION_FETCH_BYTES_CONFIG, ClientConfigs.BULK_PARTITION_FETCH_BYTES);
        c.put(ConsumerConfig.FETCH_MAX_BYTES_CONFIG, ClientConfigs.BULK_FETCH_MAX_BYTES);
        c.put(ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class);
        c.put(ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class);
        return c;
    }

    /** An admin client with the application's admin settings (security and the like). */
    static Admin admin(WeirConfig config, String role) {
        Map<String, Object> a = new HashMap<>(config.adminOverrides());
        a.put(AdminClientConfig.CLIENT_ID_CONFIG, config.applicationId() + "-" + role + "-admin");
        return KafkaClients.unmetered().admin(ClientRole.ofInstance(role + "-admin"), a);
    }

    static KafkaProducer<byte[], byte[]> producer(WeirConfig config, String role) {
        return producer(config, role, Map.of());
    }

    /** With {@code overrides} on top of the tool's settings. */
    static KafkaProducer<byte[], byte[]> producer(WeirConfig config, String role, Map<String, Object> overrides) {
        return KafkaClients.unmetered()
                .producer(ClientRole.ofInstance(role + "-producer"), producerConfig(config, role, overrides));
    }

    /** The producer's settings: the application's producer settings, the tool's, then {@code overrides}. */
    static Map<String, Object> producerConfig(WeirConfig config, String role, Map<String, Object> overrides) {
        Map<String, Object> p = new HashMap<>(config.producerOverrides());
        p.remove(ProducerConfig.TRANSACTIONAL_ID_CONFIG);
        p.put(ProducerConfig.CLIENT_ID_CONFIG, config.applicationId() + "-" + role + "-producer");
        p.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, true);
        p.put(ProducerConfig.ACKS_CONFIG, "all");
        p.put(ProducerConfig.COMPRESSION_TYPE_CONFIG, "lz4");
        p.put(ProducerConfig.LINGER_MS_CONFIG, 5);
        p.put(ProducerConfig.BATCH_SIZE_CONFIG, 512 * 1024);
        p.put(ProducerConfig.MAX_REQUEST_SIZE_CONFIG, 3 * SavepointTopics.CHUNK_BYTES);
        p.put(ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class);
        p.put(ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class);
        p.putAll(overrides);
        return p;
    }
}
