package io.weir.testkit;

import io.weir.common.internal.KafkaCalls;
import java.lang.reflect.Field;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.stream.Collectors;
import kafka.server.BrokerServer;
import kafka.server.KafkaConfig;
import kafka.server.KafkaRaftServer;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.common.network.ListenerName;
import org.apache.kafka.common.utils.Time;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Real Kafka brokers (KRaft) running inside the current JVM, like Kafka Streams'
 * {@code EmbeddedKafkaCluster} but without ZooKeeper or test-jar dependencies.
 *
 * <p>One broker ({@link #start()}) is a single node that is both broker and controller; it starts
 * in about 2.5 s. Several brokers ({@code builder().brokers(3).start()}) are one controller-only
 * node plus broker-only nodes, because combined nodes in one JVM cannot form a quorum while they
 * start one after the other.
 *
 * <p>Guarantees: when {@code start} returns, every broker is registered and unfenced; transactions,
 * consumer groups and idempotent producers work (internal topics use replication factor
 * {@code min(3, brokers)} and {@code min.insync.replicas} 2 from three brokers on, 1 below);
 * topics are not auto-created; brokers listen on loopback ports they bind themselves (port 0,
 * read back once started), the controller on one picked just before (see {@link FreePorts}); data lives in a
 * temporary directory that {@link #close()} deletes. Thread-safe; {@code close} is idempotent.
 * A broker crash cannot be simulated in-process: use {@link ChildProcessKafka} for SIGKILL tests.
 */
public final class EmbeddedKafka implements KafkaCluster {

    private static final Logger log = LoggerFactory.getLogger(EmbeddedKafka.class);
    /** Longer than the admin client's own {@code default.api.timeout.ms} here, which fails the call first. */
    private static final Duration ADMIN_TIMEOUT = Duration.ofSeconds(10);

    /** With the ports the brokers bound once they started. */
    private volatile ClusterLayout layout;

    private final Path root;
    private final List<KafkaRaftServer> controllers = new ArrayList<>();
    private final List<KafkaRaftServer> brokers = new ArrayList<>();
    private boolean closed;

    private EmbeddedKafka(ClusterLayout layout, Path root) {
        this.layout = layout;
        this.root = root;
    }

    /** Starts a single broker+controller node with the default settings. */
    public static EmbeddedKafka start() {
        return builder().start();
    }

    /** Options for an in-process cluster. */
    public static Builder builder() {
        return new Builder();
    }

    @Override
    public String bootstrapServers() {
        return layout.bootstrapServers();
    }

    /**
     * The {@code bootstrap.servers} of the listener {@link Builder#externalListener} added, e.g.
     * {@code 10.89.0.1:40125}; clients connecting there are told the brokers' external addresses.
     *
     * @throws IllegalStateException if the cluster was started without one
     */
    public String externalBootstrapServers() {
        ClusterLayout.ExternalListener external =
                layout.external.orElseThrow(() -> new IllegalStateException("started without externalListener"));
        return layout.brokers().stream().map(n -> external.address(n.nodeId())).collect(Collectors.joining(","));
    }

    /** Number of brokers (controller-only nodes are not counted). */
    public int brokerCount() {
        return layout.brokers().size();
    }

    /** Stops brokers first, then the controller, and deletes the data directory. */
    @Override
    public synchronized void close() {
        if (closed) {
            return;
        }
        closed = true;
        long started = System.nanoTime();
        try {
            // Brokers shut down in parallel: each controlled shutdown waits for the controller,
            // not for the other brokers, so doing them together saves a second per broker.
            shutdownAll(brokers);
            shutdownAll(controllers);
        } finally {
            Dirs.deleteRecursively(root);
        }
        log.debug("Stopped in-process Kafka in {} ms", (System.nanoTime() - started) / 1_000_000);
    }

    private static void shutdownAll(List<KafkaRaftServer> servers) {
        List<CompletableFuture<Void>> stops = new ArrayList<>();
        for (KafkaRaftServer server : servers) {
            stops.add(CompletableFuture.runAsync(() -> {
                server.shutdown();
                server.awaitShutdown();
            }));
        }
        for (CompletableFuture<Void> stop : stops) {
            try {
                stop.join();
            } catch (CompletionException e) {
                log.warn("A broker did not shut down cleanly", e.getCause());
            }
        }
    }

    private void startServers(Map<String, String> overrides, Duration timeout) {
        Map<Integer, Map<String, String>> props = new LinkedHashMap<>();
        for (NodeSpec node : layout.nodes) {
            props.put(node.nodeId(), layout.writeProperties(node, overrides));
            layout.format(node);
        }
        // One node after the other: a controller-only node returns from startup at once, and a
        // broker's startup returns once the controller has unfenced it. Starting brokers in
        // parallel saves little and races on the JVM-wide Yammer metrics registry they share.
        Map<Integer, Integer> brokerPorts = new LinkedHashMap<>();
        Map<Integer, Integer> externalPorts = new LinkedHashMap<>();
        for (NodeSpec node : layout.nodes) {
            KafkaRaftServer server = startNode(props.get(node.nodeId()));
            (node.role() == NodeSpec.Role.CONTROLLER ? controllers : brokers).add(server);
            if (node.role().isBroker()) {
                brokerPorts.put(node.nodeId(), boundPort(server, layout.brokerListener()));
                if (layout.external.isPresent()) {
                    externalPorts.put(node.nodeId(), boundPort(server, ClusterLayout.EXTERNAL_LISTENER));
                }
            }
        }
        layout = layout.withBoundPorts(brokerPorts, externalPorts);
        awaitBrokersRegistered(timeout);
    }

    /**
     * The port a started node's broker bound for {@code listener}. {@link KafkaRaftServer} keeps
     * its {@link BrokerServer} private, and only the broker knows the port it bound for a
     * listener of port 0 (it advertises that port, so clients find it through the metadata).
     */
    private static int boundPort(KafkaRaftServer server, String listener) {
        try {
            Field field = KafkaRaftServer.class.getDeclaredField("broker");
            field.setAccessible(true);
            scala.Option<?> broker = (scala.Option<?>) field.get(server);
            return ((BrokerServer) broker.get()).boundPort(ListenerName.normalised(listener));
        } catch (ReflectiveOperationException | ClassCastException | java.util.NoSuchElementException e) {
            throw new IllegalStateException(
                    "Cannot read the port the in-process broker bound for " + listener
                            + " (has KafkaRaftServer's field 'broker' changed?)",
                    e);
        }
    }

    private static KafkaRaftServer startNode(Map<String, String> props) {
        KafkaRaftServer server = new KafkaRaftServer(new KafkaConfig(props, false), Time.SYSTEM);
        try {
            server.startup();
        } catch (RuntimeException e) {
            server.shutdown(); // release the threads and ports a half-started node holds
            throw e;
        }
        return server;
    }

    /** The super user's security settings on a secured cluster ({@link Builder#security}); else none. */
    @Override
    public Map<String, String> clientSettings() {
        return layout.security
                .map(s -> s.clientSettings(KafkaSecurity.SUPER_USER))
                .orElse(Map.of());
    }

    private void awaitBrokersRegistered(Duration timeout) {
        int expected = brokerCount();
        try (Admin admin = new KafkaClients(bootstrapServers(), clientSettings())
                .admin(Map.of(
                        AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, "5000",
                        AdminClientConfig.REQUEST_TIMEOUT_MS_CONFIG, "5000"))) {
            Await.until(
                    timeout,
                    () -> expected + " in-process brokers registered",
                    () -> KafkaCalls.get(admin.describeCluster().nodes(), ADMIN_TIMEOUT, "describe the cluster")
                                    .size()
                            == expected);
        }
    }

    /** Options for {@link EmbeddedKafka}; each method returns this builder. */
    public static final class Builder {
        private int brokers = 1;
        private final Map<String, String> overrides = new LinkedHashMap<>();
        private Duration startTimeout = Duration.ofSeconds(60);
        private KafkaSecurity security;
        private String externalHost;

        private Builder() {}

        /** Number of brokers; 1 (default) runs one combined node, more add a dedicated controller. */
        public Builder brokers(int brokers) {
            if (brokers < 1) {
                throw new IllegalArgumentException("brokers must be at least 1, was " + brokers);
            }
            this.brokers = brokers;
            return this;
        }

        /** A broker setting applied to every node, overriding the testkit's defaults. */
        public Builder brokerConfig(String key, String value) {
            overrides.put(key, value);
            return this;
        }

        /**
         * Secures the broker listener ({@code SASL_SSL}, an authorizer that denies what no ACL
         * allows); without it the listener is {@code PLAINTEXT} with no authorizer.
         */
        public Builder security(KafkaSecurity security) {
            this.security = security;
            return this;
        }

        /**
         * Adds a second, PLAINTEXT listener to every broker, bound to all addresses on a free port and
         * advertised at {@code host}: for clients that cannot reach the loopback listener, such as
         * containers on a bridge network whose gateway is {@code host}. Not with {@link #security}.
         * Its bootstrap servers are {@link EmbeddedKafka#externalBootstrapServers()}.
         */
        public Builder externalListener(String host) {
            this.externalHost = host;
            return this;
        }

        /** How long {@link #start()} waits for all brokers to register (default 60 s). */
        public Builder startTimeout(Duration startTimeout) {
            this.startTimeout = startTimeout;
            return this;
        }

        /**
         * Formats storage, starts every node and returns once all brokers are registered; starts
         * again with another controller port if the one picked was taken before it was bound.
         */
        public EmbeddedKafka start() {
            return FreePorts.retryIfTaken("in-process Kafka", this::startOnce);
        }

        private EmbeddedKafka startOnce() {
            long started = System.nanoTime();
            Path root = Dirs.createTemp("weir-kafka-");
            ClusterLayout plain = brokers == 1
                    ? ClusterLayout.combined(1, root, ClusterLayout.BrokerPorts.BOUND_AT_START)
                    : ClusterLayout.dedicatedController(brokers, root);
            ClusterLayout layout = plain;
            if (security != null) {
                if (externalHost != null) {
                    throw new IllegalArgumentException("externalListener is PLAINTEXT: not with security");
                }
                security.createCertificate(root);
                layout = plain.secured(security);
            }
            if (externalHost != null) {
                layout = layout.withExternalListener(externalHost);
            }
            EmbeddedKafka kafka = new EmbeddedKafka(layout, root);
            try {
                kafka.startServers(Map.copyOf(overrides), startTimeout);
            } catch (RuntimeException e) {
                kafka.close();
                throw e;
            }
            log.debug(
                    "Started in-process Kafka ({} brokers) at {} in {} ms",
                    brokers,
                    kafka.bootstrapServers(),
                    (System.nanoTime() - started) / 1_000_000);
            return kafka;
        }
    }
}
