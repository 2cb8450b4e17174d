package io.weir.testkit;

import org.testcontainers.DockerClientFactory;
import org.testcontainers.kafka.KafkaContainer;
import org.testcontainers.utility.DockerImageName;

/**
 * The Testcontainers backend: one apache/kafka broker in a container. Testcontainers is an
 * optional dependency, so only {@link KafkaClusters} touches this class, and only after checking
 * that the Testcontainers classes are present; nothing else in testkit links against them.
 */
final class TestcontainersKafka implements KafkaCluster {

    /** The image, overridable with {@code -Dweir.testkit.kafkaImage=apache/kafka:<tag>}. */
    static final String IMAGE_PROPERTY = "weir.testkit.kafkaImage";

    static final String DEFAULT_IMAGE = "apache/kafka:4.4.0";

    private final KafkaContainer container;

    private TestcontainersKafka(KafkaContainer container) {
        this.container = container;
    }

    static boolean dockerAvailable() {
        return DockerClientFactory.instance().isDockerAvailable();
    }

    static TestcontainersKafka start() {
        KafkaContainer container = new KafkaContainer(
                        DockerImageName.parse(System.getProperty(IMAGE_PROPERTY, DEFAULT_IMAGE)))
                // The same single-broker settings as the other backends, so transactions work.
                .withEnv("KAFKA_OFFSETS_TOPIC_REPLICATION_FACTOR", "1")
                .withEnv("KAFKA_OFFSETS_TOPIC_NUM_PARTITIONS", "5")
                .withEnv("KAFKA_TRANSACTION_STATE_LOG_REPLICATION_FACTOR", "1")
                .withEnv("KAFKA_TRANSACTION_STATE_LOG_MIN_ISR", "1")
                .withEnv("KAFKA_TRANSACTION_STATE_LOG_NUM_PARTITIONS", "5")
                .withEnv("KAFKA_MIN_INSYNC_REPLICAS", "1")
                .withEnv("KAFKA_GROUP_INITIAL_REBALANCE_DELAY_MS", "0")
                .withEnv("KAFKA_AUTO_CREATE_TOPICS_ENABLE", "false");
        container.start();
        return new TestcontainersKafka(container);
    }

    @Override
    public String bootstrapServers() {
        return container.getBootstrapServers();
    }

    @Override
    public void close() {
        container.stop();
    }
}
