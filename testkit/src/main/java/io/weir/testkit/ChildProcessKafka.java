package io.weir.testkit;

import io.weir.common.internal.KafkaCalls;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.common.Node;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Kafka brokers (KRaft) each in its own JVM ({@code kafka.Kafka server.properties}), so a test can
 * crash one with SIGKILL and bring it back: the fault a broker pod or host really has.
 *
 * <p>One node is broker and controller. Three nodes are three broker+controller processes: a
 * controller quorum of three, so killing any one node leaves a working quorum and two in-sync
 * replicas. Node ids are 1..n. Brokers use {@code broker.session.timeout.ms=2000} so the
 * controller fences a killed broker and moves leadership within about two seconds.
 *
 * <p>Guarantees: {@code start()} and {@link #restart(int)} return once the node(s) answer and
 * the cluster lists all brokers, or throw with the tail of the failing node's log; ports and data
 * directories survive {@link #kill(int)}, so a restarted node comes back at the same address with
 * the data it had; child JVMs run with this JVM's classpath and quiet (WARN) logging to
 * {@link #logFile(int)}; {@link #close()} kills every node and deletes all data; children never
 * outlive this JVM. Thread-safe.
 */
public final class ChildProcessKafka implements KafkaCluster {

    private static final Logger log = LoggerFactory.getLogger(ChildProcessKafka.class);
    /** Longer than the admin client's own {@code default.api.timeout.ms} here, which fails the call first. */
    private static final Duration ADMIN_TIMEOUT = Duration.ofSeconds(10);

    private final ClusterLayout layout;
    private final Path root;
    private final Map<String, String> overrides;
    private final List<String> jvmOptions;
    private final Duration startTimeout;
    private final Map<Integer, ChildJvm> processes = new LinkedHashMap<>();
    private boolean closed;

    private ChildProcessKafka(
            ClusterLayout layout,
            Path root,
            Map<String, String> overrides,
            List<String> jvmOptions,
            Duration startTimeout) {
        this.layout = layout;
        this.root = root;
        this.overrides = overrides;
        this.jvmOptions = jvmOptions;
        this.startTimeout = startTimeout;
    }

    /** Starts {@code nodes} (1 or 3) broker processes with default settings. */
    public static ChildProcessKafka start(int nodes) {
        return builder().nodes(nodes).start();
    }

    /** Options for child-process brokers. */
    public static Builder builder() {
        return new Builder();
    }

    @Override
    public String bootstrapServers() {
        return layout.bootstrapServers();
    }

    /** The node ids, 1..n; every node is a broker. */
    public List<Integer> nodeIds() {
        return layout.nodes.stream().map(NodeSpec::nodeId).collect(Collectors.toList());
    }

    /** {@code host:port} of one broker, to talk to it alone. */
    public String brokerAddress(int nodeId) {
        return layout.node(nodeId).brokerAddress();
    }

    public synchronized boolean isAlive(int nodeId) {
        ChildJvm process = processes.get(nodeId);
        return process != null && process.isAlive();
    }

    /** The node's stdout/stderr (WARN-level logs), kept across restarts. */
    public Path logFile(int nodeId) {
        return layout.node(nodeId).logFile();
    }

    /** The JVM of one node, e.g. for its pid. */
    public synchronized ChildJvm process(int nodeId) {
        layout.node(nodeId);
        return processes.get(nodeId);
    }

    /**
     * SIGKILLs the node's JVM and waits until it has exited. The controller notices through the
     * missed heartbeats, after {@code broker.session.timeout.ms}.
     */
    public synchronized void kill(int nodeId) {
        ChildJvm process = processes.get(layout.node(nodeId).nodeId());
        if (process != null) {
            process.kill();
        }
    }

    /**
     * Starts the node again with its data and ports (SIGKILLing it first if it still runs) and
     * returns once it answers requests itself and the cluster lists all brokers again. Log
     * recovery after an unclean stop is part of what this waits for.
     */
    public synchronized void restart(int nodeId) {
        NodeSpec node = layout.node(nodeId);
        kill(nodeId);
        long started = System.nanoTime();
        launch(node);
        awaitReady(List.of(node));
        log.debug("Restarted broker process {} in {} ms", nodeId, (System.nanoTime() - started) / 1_000_000);
    }

    /** SIGKILLs every node and deletes all data. A clean shutdown is not needed: data is thrown away. */
    @Override
    public synchronized void close() {
        if (closed) {
            return;
        }
        closed = true;
        for (ChildJvm process : processes.values()) {
            process.kill();
        }
        Dirs.deleteRecursively(root);
    }

    private void startAll() {
        for (NodeSpec node : layout.nodes) {
            layout.writeProperties(node, brokerSettings());
            layout.format(node); // in this JVM: saves a JVM start per node
        }
        for (NodeSpec node : layout.nodes) {
            launch(node);
        }
        awaitReady(layout.nodes);
    }

    private Map<String, String> brokerSettings() {
        Map<String, String> settings = new LinkedHashMap<>();
        // Fence a killed broker fast so leadership moves in seconds, not after the 9 s default.
        settings.put("broker.session.timeout.ms", "2000");
        settings.put("broker.heartbeat.interval.ms", "500");
        settings.putAll(overrides);
        return settings;
    }

    private void launch(NodeSpec node) {
        ChildJvm process = ChildJvm.builder("kafka.Kafka")
                .args(node.propertiesFile().toString())
                .jvmOptions(jvmOptions.toArray(String[]::new))
                .quietLogging()
                .outputFile(node.logFile())
                .workingDirectory(node.dir())
                .start();
        processes.put(node.nodeId(), process);
    }

    /**
     * Waits until each of {@code nodes} answers on its own listener and the cluster lists every
     * broker. Asking the node itself matters after a restart: the cluster may still list a
     * killed broker whose session has not expired yet. A broker opens its listener for requests
     * only after the controller has unfenced it.
     */
    private void awaitReady(List<NodeSpec> nodes) {
        Set<Integer> expected = layout.brokers().stream().map(NodeSpec::nodeId).collect(Collectors.toSet());
        for (NodeSpec node : nodes) {
            try (Admin admin = new KafkaClients(node.brokerAddress(), Map.of())
                    .admin(Map.of(
                            AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, "3000",
                            AdminClientConfig.REQUEST_TIMEOUT_MS_CONFIG, "3000",
                            AdminClientConfig.RECONNECT_BACKOFF_MAX_MS_CONFIG, "200"))) {
                Await.until(
                        startTimeout,
                        () -> "broker process " + node.nodeId() + " at " + node.brokerAddress() + " ready, log "
                                + node.logFile() + ":\n"
                                + processes.get(node.nodeId()).outputTail(40),
                        () -> {
                            ChildJvm process = processes.get(node.nodeId());
                            if (!process.isAlive()) {
                                throw new Await.GiveUp(
                                        "exited with " + process.exitCode().getAsInt());
                            }
                            Set<Integer> ids = KafkaCalls.get(
                                            admin.describeCluster().nodes(), ADMIN_TIMEOUT, "describe the cluster")
                                    .stream()
                                    .map(Node::id)
                                    .collect(Collectors.toSet());
                            return ids.equals(expected);
                        });
            }
        }
    }

    /** Options for {@link ChildProcessKafka}; each method returns this builder. */
    public static final class Builder {
        private int nodes = 1;
        private final Map<String, String> overrides = new LinkedHashMap<>();
        private final List<String> jvmOptions =
                new ArrayList<>(List.of("-Xms64m", "-Xmx512m", "-XX:+UseParallelGC", "-XX:+ExitOnOutOfMemoryError"));
        private Duration startTimeout = Duration.ofSeconds(120);

        private Builder() {}

        /** 1 (default) or 3 broker+controller processes. */
        public Builder nodes(int nodes) {
            if (nodes != 1 && nodes != 3) {
                throw new IllegalArgumentException("1 or 3 nodes (a controller quorum must be odd), was " + nodes);
            }
            this.nodes = nodes;
            return this;
        }

        /** A broker setting for every node, overriding the testkit's defaults. */
        public Builder brokerConfig(String key, String value) {
            overrides.put(key, value);
            return this;
        }

        /** Replaces the child JVM options (default {@code -Xms64m -Xmx512m -XX:+UseParallelGC ...}). */
        public Builder jvmOptions(String... options) {
            jvmOptions.clear();
            jvmOptions.addAll(List.of(options));
            return this;
        }

        /** How long start and restart wait for a node (default 120 s: several child JVMs starting at once on two busy cores take that long). */
        public Builder startTimeout(Duration startTimeout) {
            this.startTimeout = startTimeout;
            return this;
        }

        /**
         * Formats storage, launches every node and waits until all brokers are registered; starts
         * again with other ports if one picked was taken before its node bound it.
         */
        public ChildProcessKafka start() {
            return FreePorts.retryIfTaken("Kafka broker processes", this::startOnce);
        }

        private ChildProcessKafka startOnce() {
            long started = System.nanoTime();
            Path root = Dirs.createTemp("weir-kafka-proc-");
            // Ports picked before the start: this JVM must find the processes, and a node comes back
            // at the same address after restart(int).
            ChildProcessKafka kafka = new ChildProcessKafka(
                    ClusterLayout.combined(nodes, root, ClusterLayout.BrokerPorts.PICKED_BEFORE_START),
                    root,
                    Map.copyOf(overrides),
                    List.copyOf(jvmOptions),
                    startTimeout);
            try {
                kafka.startAll();
            } catch (RuntimeException e) {
                kafka.close();
                throw e;
            }
            log.debug(
                    "Started {} broker processes at {} in {} ms",
                    nodes,
                    kafka.bootstrapServers(),
                    (System.nanoTime() - started) / 1_000_000);
            return kafka;
        }
    }
}
