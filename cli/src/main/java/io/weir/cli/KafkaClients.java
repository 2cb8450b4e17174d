package io.weir.cli;

import io.weir.config.WeirConfig;
import java.util.HashMap;
import java.util.Locale;
import java.util.Map;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.common.IsolationLevel;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;

/**
 * The CLI's one maker of Kafka clients: each gets the application's client settings as
 * {@link WeirConfig} gives them (bootstrap servers, security, SASL, TLS) and a client id that names
 * the CLI. The caller closes what it is given.
 */
final class KafkaClients {

    private KafkaClients() {}

    /** An admin client with the application's admin settings. */
    static Admin admin(WeirConfig config) {
        Map<String, Object> settings = new HashMap<>(config.adminOverrides());
        settings.put(AdminClientConfig.CLIENT_ID_CONFIG, "weir-cli-admin");
        return Admin.create(settings);
    }

    /**
     * A consumer of bytes for reads by {@code assign()}, with the application's consumer settings
     * but in no group: it commits nothing, and a topic it asks about is not created.
     */
    static KafkaConsumer<byte[], byte[]> reader(WeirConfig config, String clientId, IsolationLevel isolation) {
        Map<String, Object> settings = new HashMap<>(config.consumerOverrides());
        settings.remove(ConsumerConfig.GROUP_ID_CONFIG);
        settings.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
        settings.put(ConsumerConfig.ALLOW_AUTO_CREATE_TOPICS_CONFIG, false);
        settings.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, isolation.toString().toLowerCase(Locale.ROOT));
        settings.put(ConsumerConfig.CLIENT_ID_CONFIG, clientId);
        return new KafkaConsumer<>(settings, new ByteArrayDeserializer(), new ByteArrayDeserializer());
    }

    /**
     * A consumer of bytes in group {@code groupId}, for reads by {@code assign()} whose position is
     * committed through a transactional producer: read_committed, no auto commit, no topic creation.
     */
    static KafkaConsumer<byte[], byte[]> groupReader(WeirConfig config, String groupId, String clientId) {
        Map<String, Object> settings = new HashMap<>(config.consumerOverrides());
        settings.put(ConsumerConfig.GROUP_ID_CONFIG, groupId);
        settings.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
        settings.put(ConsumerConfig.ALLOW_AUTO_CREATE_TOPICS_CONFIG, false);
        settings.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
        settings.put(ConsumerConfig.CLIENT_ID_CONFIG, clientId);
        return new KafkaConsumer<>(settings, new ByteArrayDeserializer(), new ByteArrayDeserializer());
    }

    /**
     * A transactional producer of bytes with the application's producer settings: idempotent,
     * acks=all, {@code transactionalId}; the caller initialises its transactions.
     */
    static KafkaProducer<byte[], byte[]> transactionalProducer(WeirConfig config, String transactionalId) {
        Map<String, Object> settings = new HashMap<>(config.producerOverrides());
        settings.put(ProducerConfig.TRANSACTIONAL_ID_CONFIG, transactionalId);
        settings.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, true);
        settings.put(ProducerConfig.ACKS_CONFIG, "all");
        settings.put(ProducerConfig.CLIENT_ID_CONFIG, transactionalId);
        return new KafkaProducer<>(settings, new ByteArraySerializer(), new ByteArraySerializer());
    }
}
