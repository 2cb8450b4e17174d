package io.weir.samples.common;

import java.util.Map;
import java.util.UUID;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;

/**
 * Every Kafka client the sample commands create beside the applications themselves (the load's
 * producer, the output tail's consumer, the admin client that checks a topic), with their
 * settings in one place. Keys and values are byte arrays: the samples' serdes read and write them.
 */
final class KafkaClients {

    private KafkaClients() {}

    /** The load's producer: {@code acks=all}, a short linger, named after the sample. */
    static KafkaProducer<byte[], byte[]> loadProducer(String bootstrapServers, String sampleName) {
        return new KafkaProducer<>(Map.of(
                ProducerConfig.BOOTSTRAP_SERVERS_CONFIG,
                bootstrapServers,
                ProducerConfig.CLIENT_ID_CONFIG,
                "weir-load-" + sampleName,
                ProducerConfig.ACKS_CONFIG,
                "all",
                ProducerConfig.LINGER_MS_CONFIG,
                5,
                ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG,
                ByteArraySerializer.class,
                ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG,
                ByteArraySerializer.class));
    }

    /**
     * A consumer of committed output without a group ({@code read_committed}, no auto-commit), as
     * a downstream reader sees the output; a client id of its own for each.
     */
    static KafkaConsumer<byte[], byte[]> committedReader(String bootstrapServers) {
        return new KafkaConsumer<>(
                Map.of(
                        ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG,
                        bootstrapServers,
                        ConsumerConfig.CLIENT_ID_CONFIG,
                        "weir-sample-tail-" + UUID.randomUUID(),
                        ConsumerConfig.ISOLATION_LEVEL_CONFIG,
                        "read_committed",
                        ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG,
                        "false"),
                new ByteArrayDeserializer(),
                new ByteArrayDeserializer());
    }

    /** An admin client of the cluster at {@code bootstrapServers}. */
    static Admin admin(String bootstrapServers) {
        return Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers));
    }
}
