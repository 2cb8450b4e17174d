package io.weir.testkit;

import java.util.HashMap;
import java.util.Map;
import java.util.UUID;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.common.IsolationLevel;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.Deserializer;

/**
 * The testkit's one maker of Kafka clients, for one cluster: every client gets the cluster's
 * address and its security settings (empty on a plaintext cluster), then the settings of its use.
 * The caller owns and closes what it is given.
 */
final class KafkaClients {

    private final String bootstrapServers;
    private final Map<String, String> security;

    KafkaClients(String bootstrapServers, Map<String, String> security) {
        this.bootstrapServers = bootstrapServers;
        this.security = Map.copyOf(security);
    }

    String bootstrapServers() {
        return bootstrapServers;
    }

    /** An admin client with {@code settings} (time-outs of a start-up check, say) on top. */
    Admin admin(Map<String, Object> settings) {
        return Admin.create(with(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, settings));
    }

    /** A producer whose sends are acknowledged by all in-sync replicas, without duplicates. */
    KafkaProducer<byte[], byte[]> idempotentProducer() {
        return new KafkaProducer<>(with(
                ProducerConfig.BOOTSTRAP_SERVERS_CONFIG,
                Map.of(
                        ProducerConfig.ACKS_CONFIG,
                        "all",
                        ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG,
                        "true",
                        ProducerConfig.LINGER_MS_CONFIG,
                        "5",
                        ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG,
                        ByteArraySerializer.class.getName(),
                        ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG,
                        ByteArraySerializer.class.getName())));
    }

    /**
     * A consumer for {@code assign()} reads from the earliest offset: no group, nothing committed,
     * a client id of its own.
     */
    <K, V> KafkaConsumer<K, V> reader(IsolationLevel isolation, Deserializer<K> keys, Deserializer<V> values) {
        return new KafkaConsumer<>(
                with(
                        ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG,
                        Map.of(
                                ConsumerConfig.CLIENT_ID_CONFIG,
                                "weir-testkit-reader-" + UUID.randomUUID(),
                                ConsumerConfig.ISOLATION_LEVEL_CONFIG,
                                isolation.toString().toLowerCase(),
                                ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG,
                                "false",
                                ConsumerConfig.AUTO_OFFSET_RESET_CONFIG,
                                "earliest")),
                keys,
                values);
    }

    /** The security settings, the address under {@code bootstrapKey}, then {@code settings}. */
    private Map<String, Object> with(String bootstrapKey, Map<String, Object> settings) {
        Map<String, Object> all = new HashMap<>(security);
        all.put(bootstrapKey, bootstrapServers);
        all.putAll(settings);
        return all;
    }
}
