package io.weir.internal.config;

import java.util.Map;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.common.serialization.Deserializer;
import org.apache.kafka.common.serialization.Serializer;

/**
 * Where the framework's Kafka clients are created, every one of them: the stream threads', the
 * state thread's, the liveness watch's, the savepoints', the admin clients. The settings are the
 * caller's, taken as they are (built by {@code ClientConfigs}, {@code SavepointClients} or
 * {@code WeirConfig}'s admin settings, which the security tests check); one place to create
 * clients is one place to add what every client must have (their metrics).
 *
 * <p>In the lowest internal room, beside the client settings, so that every room may use it
 * (the topology record's clients included); {@code ClientConfigs}' room ranks above the topology.
 * Static, because nothing per application goes into a client yet; once the clients' own metrics
 * are bound to the instance's meter registry, this becomes an object the application owns and
 * hands to its threads.
 */
public final class KafkaClients {

    private KafkaClients() {}

    /** A consumer with {@code config}, deserializers included. */
    public static <K, V> KafkaConsumer<K, V> consumer(Map<String, Object> config) {
        return new KafkaConsumer<>(config);
    }

    /** A consumer with {@code config} and these deserializers. */
    public static <K, V> KafkaConsumer<K, V> consumer(
            Map<String, Object> config, Deserializer<K> keys, Deserializer<V> values) {
        return new KafkaConsumer<>(config, keys, values);
    }

    /** A producer with {@code config}, serializers included. */
    public static <K, V> KafkaProducer<K, V> producer(Map<String, Object> config) {
        return new KafkaProducer<>(config);
    }

    /** A producer with {@code config} and these serializers. */
    public static <K, V> KafkaProducer<K, V> producer(
            Map<String, Object> config, Serializer<K> keys, Serializer<V> values) {
        return new KafkaProducer<>(config, keys, values);
    }

    /** An admin client with {@code config}. */
    public static Admin admin(Map<String, Object> config) {
        return Admin.create(config);
    }
}
