package io.weir.testkit;

import java.util.Map;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;
import org.apache.kafka.clients.admin.Admin;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * JUnit 5 extension that gives a test class a running Kafka cluster and a client for it.
 *
 * <pre>{@code
 * @RegisterExtension
 * static final KafkaExtension KAFKA = KafkaExtension.perClass();   // or sharedPerRun()
 *
 * @Test
 * void countsWords() {
 *     String input = KAFKA.uniqueTopic("words", 3);
 *     KAFKA.client().produceStrings(input, List.of(KeyValue.of("k", "hello")));
 * }
 * }</pre>
 *
 * <p>Guarantees: the cluster is running before the first {@code @BeforeAll} method of the class
 * (register the extension on a {@code static} field); {@link #perClass()} closes it after the
 * class's last test; {@link #sharedPerRun()} starts one cluster for the whole test JVM, closed when
 * JUnit closes its root context (stored as an {@link AutoCloseable} in the root store, which
 * JUnit 5.13+ closes at the end of the run), so many test classes pay the start-up once. The
 * backend is chosen by {@link KafkaClusters#fromSystemProperty()}. Topics from
 * {@link #uniqueTopic} never collide, so tests sharing a cluster stay independent. Thread-safe.
 */
public final class KafkaExtension implements BeforeAllCallback, AfterAllCallback {

    private static final ExtensionContext.Namespace NAMESPACE = ExtensionContext.Namespace.create(KafkaExtension.class);
    private static final AtomicInteger TOPIC_COUNTER = new AtomicInteger();

    private final boolean shared;
    private final Supplier<? extends KafkaCluster> factory;
    private volatile Running running;
    private String ownerContextId;

    private KafkaExtension(boolean shared, Supplier<? extends KafkaCluster> factory) {
        this.shared = shared;
        this.factory = factory;
    }

    /** One single-broker cluster for this test class, on the backend chosen by system property. */
    public static KafkaExtension perClass() {
        return new KafkaExtension(false, KafkaClusters::fromSystemProperty);
    }

    /** One cluster from {@code factory} for this test class, e.g. {@code () -> EmbeddedKafka.builder().brokers(3).start()}. */
    public static KafkaExtension perClass(Supplier<? extends KafkaCluster> factory) {
        return new KafkaExtension(false, factory);
    }

    /** One single-broker cluster shared by every test class of this JVM that uses this method. */
    public static KafkaExtension sharedPerRun() {
        return new KafkaExtension(true, KafkaClusters::fromSystemProperty);
    }

    @Override
    public synchronized void beforeAll(ExtensionContext context) {
        if (running != null) {
            return; // a @Nested class inherits the extension; it keeps the enclosing class's cluster
        }
        if (shared) {
            running = context.getRoot()
                    .getStore(NAMESPACE)
                    .getOrComputeIfAbsent(Running.class, key -> new Running(factory.get()), Running.class);
        } else {
            running = new Running(factory.get());
            ownerContextId = context.getUniqueId();
        }
    }

    @Override
    public synchronized void afterAll(ExtensionContext context) {
        if (!shared && running != null && context.getUniqueId().equals(ownerContextId)) {
            running.close();
            running = null;
        }
    }

    public String bootstrapServers() {
        return running().cluster.bootstrapServers();
    }

    /** The running cluster. */
    public KafkaCluster cluster() {
        return running().cluster;
    }

    /** A client (topics, produce, read) for the cluster, closed with the cluster. */
    public KafkaTestClient client() {
        return running().client;
    }

    /** A cached {@link Admin}, closed with the cluster; do not close it yourself. */
    public Admin admin() {
        return client().admin();
    }

    /**
     * Creates a topic named {@code <prefix>-<n>-<random>} with {@code partitions} partitions and
     * returns its name once every partition has a leader.
     */
    public String uniqueTopic(String prefix, int partitions) {
        String name = prefix + "-" + TOPIC_COUNTER.incrementAndGet() + "-"
                + UUID.randomUUID().toString().substring(0, 8);
        createTopic(name, partitions, Map.of());
        return name;
    }

    /** Creates a topic with topic-level configs and waits until every partition has a leader. */
    public void createTopic(String name, int partitions, Map<String, String> configs) {
        client().createTopic(name, partitions, configs);
    }

    private Running running() {
        Running r = running;
        if (r == null) {
            throw new IllegalStateException("Kafka is not running: register KafkaExtension with "
                    + "@RegisterExtension on a static field, and use it inside the test class's lifecycle");
        }
        return r;
    }

    /** A cluster and its client; AutoCloseable so that JUnit's root store closes a shared one. */
    private static final class Running implements AutoCloseable {
        final KafkaCluster cluster;
        final KafkaTestClient client;

        Running(KafkaCluster cluster) {
            this.cluster = cluster;
            this.client = KafkaTestClient.connect(cluster.bootstrapServers());
        }

        @Override
        public void close() {
            try {
                client.close();
            } finally {
                cluster.close();
            }
        }
    }
}
