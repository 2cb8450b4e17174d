package io.weir.testkit;

/**
 * A running Kafka cluster that a test, a demo or a benchmark can connect to.
 *
 * <p>Guarantees: when a factory method returns an instance, every broker of the cluster has
 * registered with the controller and answers on {@link #bootstrapServers()}; internal topics
 * (consumer offsets, transaction state) are configured so that consumer groups and transactions
 * work with the cluster's broker count. {@link #close()} stops every broker and deletes the data
 * the cluster wrote; it is idempotent.
 *
 * <p>Implementations: {@link EmbeddedKafka} (in this JVM), {@link ChildProcessKafka} (one JVM per
 * node, can be SIGKILLed), and a Testcontainers container chosen by {@link KafkaClusters}.
 */
public interface KafkaCluster extends AutoCloseable {

    /** The {@code bootstrap.servers} string for clients, e.g. {@code 127.0.0.1:40123}. */
    String bootstrapServers();

    /**
     * The Kafka client settings, besides {@code bootstrap.servers}, that a client needs to connect
     * with every right (security protocol, SASL login, trust store); empty for a plaintext cluster.
     */
    default java.util.Map<String, String> clientSettings() {
        return java.util.Map.of();
    }

    /** Stops all brokers and deletes their data. Does not throw checked exceptions. */
    @Override
    void close();
}
