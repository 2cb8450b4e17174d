package io.weir.testkit;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.stream.Collectors;
import kafka.tools.StorageTool;
import org.apache.kafka.common.Uuid;

/**
 * The shape of a cluster (which nodes, which roles, which ports), the broker settings every
 * backend shares, and formatting of each node's storage. Both {@link EmbeddedKafka} and
 * {@link ChildProcessKafka} go through here so the two backends behave the same.
 *
 * <p>Ports: a port of 0 is bound by the node itself at start and read back from it
 * ({@link #withBoundPorts}); that is how in-process brokers listen, without a window in which
 * another process can take a port picked for them. A port that must be known before the node
 * starts is picked by {@link FreePorts} instead (see there why, and how a lost race is retried).
 */
final class ClusterLayout {

    static final String BROKER_LISTENER = "PLAINTEXT";
    static final String CONTROLLER_LISTENER = "CONTROLLER";

    final List<NodeSpec> nodes;
    final String clusterId = Uuid.randomUuid().toString();
    /** Listener name of {@link #withExternalListener}. */
    static final String EXTERNAL_LISTENER = "EXTERNAL";

    /** Empty: the broker listener is PLAINTEXT and there is no authorizer. */
    final Optional<KafkaSecurity> security;
    /** Empty: no external listener. */
    final Optional<ExternalListener> external;

    /** A second PLAINTEXT listener on every address, advertised at a host of the caller's choice. */
    record ExternalListener(String advertisedHost, Map<Integer, Integer> portByNode) {
        String address(int nodeId) {
            return advertisedHost + ":" + portByNode.get(nodeId);
        }
    }

    private ClusterLayout(List<NodeSpec> nodes) {
        this(nodes, Optional.empty(), Optional.empty());
    }

    private ClusterLayout(List<NodeSpec> nodes, Optional<KafkaSecurity> security, Optional<ExternalListener> external) {
        this.nodes = List.copyOf(nodes);
        this.security = security;
        this.external = external;
    }

    /** This layout with its broker listener secured by {@code security}. */
    ClusterLayout secured(KafkaSecurity security) {
        return new ClusterLayout(nodes, Optional.of(security), external);
    }

    /**
     * This layout with an extra listener on every broker: bound to all addresses on a port each
     * broker binds itself (0, read back with {@link #withBoundPorts}), advertised at {@code host}.
     */
    ClusterLayout withExternalListener(String host) {
        Map<Integer, Integer> byNode = new LinkedHashMap<>();
        brokers().forEach(b -> byNode.put(b.nodeId(), 0));
        return new ClusterLayout(nodes, security, Optional.of(new ExternalListener(host, byNode)));
    }

    /**
     * This layout with the ports the brokers bound (for those of port 0): {@code brokerPorts} and
     * {@code externalPorts} by node id; a node not in a map keeps its port.
     */
    ClusterLayout withBoundPorts(Map<Integer, Integer> brokerPorts, Map<Integer, Integer> externalPorts) {
        List<NodeSpec> bound = nodes.stream()
                .map(n -> new NodeSpec(
                        n.nodeId(),
                        n.role(),
                        brokerPorts.getOrDefault(n.nodeId(), n.brokerPort()),
                        n.controllerPort(),
                        n.dir()))
                .toList();
        Optional<ExternalListener> boundExternal = external.map(e -> {
            Map<Integer, Integer> byNode = new LinkedHashMap<>(e.portByNode());
            byNode.putAll(externalPorts);
            return new ExternalListener(e.advertisedHost(), byNode);
        });
        return new ClusterLayout(bound, security, boundExternal);
    }

    /** The listener clients connect to. */
    String brokerListener() {
        return security.isPresent() ? KafkaSecurity.LISTENER : BROKER_LISTENER;
    }

    /** How a broker's listener port is chosen. */
    enum BrokerPorts {
        /** 0: the broker binds a free port itself, read back once it started (in-process brokers). */
        BOUND_AT_START,
        /**
         * Picked before the start ({@link FreePorts}): a broker in another process must be found
         * by this one, and comes back at the same address after a restart.
         */
        PICKED_BEFORE_START
    }

    /**
     * {@code count} nodes that are each broker and controller, ids 1..count. In one JVM this only
     * works for a single node: combined nodes start one after the other and the first one waits
     * for a controller quorum that the others would form. Separate processes start together.
     * Controller ports are always picked before the start: every node's
     * {@code controller.quorum.voters} lists them.
     */
    static ClusterLayout combined(int count, Path root, BrokerPorts brokerPorts) {
        boolean pickBrokers = brokerPorts == BrokerPorts.PICKED_BEFORE_START;
        int[] ports = FreePorts.pick(pickBrokers ? 2 * count : count);
        List<NodeSpec> nodes = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            int id = i + 1;
            int brokerPort = pickBrokers ? ports[count + i] : 0;
            nodes.add(new NodeSpec(id, NodeSpec.Role.COMBINED, brokerPort, ports[i], root.resolve("node-" + id)));
        }
        return new ClusterLayout(nodes);
    }

    /**
     * One controller-only node (id 0) and {@code brokers} broker-only nodes, ids 1..brokers; the
     * brokers bind their ports at start, the controller's is picked before (the brokers' quorum
     * voters name it).
     */
    static ClusterLayout dedicatedController(int brokers, Path root) {
        int controllerPort = FreePorts.pick(1)[0];
        List<NodeSpec> nodes = new ArrayList<>();
        nodes.add(new NodeSpec(0, NodeSpec.Role.CONTROLLER, -1, controllerPort, root.resolve("controller-0")));
        for (int id = 1; id <= brokers; id++) {
            nodes.add(new NodeSpec(id, NodeSpec.Role.BROKER, 0, -1, root.resolve("node-" + id)));
        }
        return new ClusterLayout(nodes);
    }

    List<NodeSpec> brokers() {
        return nodes.stream().filter(n -> n.role().isBroker()).collect(Collectors.toList());
    }

    NodeSpec node(int nodeId) {
        return nodes.stream()
                .filter(n -> n.nodeId() == nodeId)
                .findFirst()
                .orElseThrow(() -> new IllegalArgumentException("No node " + nodeId + " in this cluster"));
    }

    String bootstrapServers() {
        return brokers().stream().map(NodeSpec::brokerAddress).collect(Collectors.joining(","));
    }

    private String voters() {
        return nodes.stream()
                .filter(n -> n.role().isController())
                .map(NodeSpec::voter)
                .collect(Collectors.joining(","));
    }

    /**
     * Settings every node gets. Internal topics are sized to the broker count: with fewer than
     * three brokers a replication factor of three cannot be met and {@code initTransactions}
     * or the first group join would wait for a topic that is never created.
     */
    Map<String, String> commonSettings() {
        int brokerCount = brokers().size();
        String rf = Integer.toString(Math.min(3, brokerCount));
        String minIsr = brokerCount >= 3 ? "2" : "1";
        Map<String, String> s = new LinkedHashMap<>();
        s.put("offsets.topic.replication.factor", rf);
        s.put("offsets.topic.num.partitions", "5"); // fewer partitions: faster first group join
        s.put("transaction.state.log.replication.factor", rf);
        s.put("transaction.state.log.min.isr", minIsr);
        s.put("transaction.state.log.num.partitions", "5"); // fewer partitions: faster initTransactions
        s.put("share.coordinator.state.topic.replication.factor", rf);
        s.put("share.coordinator.state.topic.min.isr", minIsr);
        s.put("share.coordinator.state.topic.num.partitions", "5");
        s.put("min.insync.replicas", minIsr);
        s.put("group.initial.rebalance.delay.ms", "0"); // the 3 s default delays every first join
        s.put("auto.create.topics.enable", "false"); // a typo in a topic name fails instead of hiding
        // The log cleaner allocates its whole dedupe buffer (128 MiB) at start; several brokers
        // share one test heap, and test topics are tiny.
        s.put("log.cleaner.dedupe.buffer.size", Integer.toString(16 * 1024 * 1024));
        return s;
    }

    /** Writes {@code server.properties} for {@code node}: its own settings, common ones, overrides. */
    Map<String, String> writeProperties(NodeSpec node, Map<String, String> overrides) {
        Map<String, String> p = new LinkedHashMap<>();
        p.put("node.id", Integer.toString(node.nodeId()));
        p.put("process.roles", node.role().processRoles);
        p.put("controller.quorum.voters", voters());
        p.put("controller.listener.names", CONTROLLER_LISTENER);
        String listener = brokerListener();
        p.put(
                "listener.security.protocol.map",
                listener + ":" + listener + "," + CONTROLLER_LISTENER + ":PLAINTEXT"
                        + (external.isPresent() ? "," + EXTERNAL_LISTENER + ":PLAINTEXT" : ""));
        List<String> listeners = new ArrayList<>();
        if (node.role().isBroker()) {
            listeners.add(listener + "://" + node.brokerAddress());
            String advertised = listener + "://" + node.brokerAddress();
            if (external.isPresent()) {
                // Clients on another network (containers) bootstrap here and are told this address back.
                listeners.add(EXTERNAL_LISTENER + "://0.0.0.0:"
                        + external.get().portByNode().get(node.nodeId()));
                advertised += "," + EXTERNAL_LISTENER + "://" + external.get().address(node.nodeId());
            }
            p.put("advertised.listeners", advertised);
            p.put("inter.broker.listener.name", listener);
        }
        if (node.role().isController()) {
            listeners.add(CONTROLLER_LISTENER + "://" + NodeSpec.HOST + ":" + node.controllerPort());
        }
        p.put("listeners", String.join(",", listeners));
        p.put("log.dirs", node.dataDir().toString());
        p.putAll(commonSettings());
        if (node.role().isController()) {
            // Topics created without a replication factor get the controller's default; on a
            // broker-only node Kafka 4 warns that this setting is ignored.
            p.put("default.replication.factor", p.get("offsets.topic.replication.factor"));
        }
        security.ifPresent(sec -> p.putAll(sec.brokerSettings()));
        p.putAll(overrides);

        Properties props = new Properties();
        props.putAll(p);
        try {
            Files.createDirectories(node.dataDir());
            try (OutputStream out = Files.newOutputStream(node.propertiesFile())) {
                props.store(out, "Weir testkit node " + node.nodeId());
            }
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot write " + node.propertiesFile(), e);
        }
        return p;
    }

    /**
     * Formats the node's storage the way {@code kafka-storage.sh format} does, in this JVM:
     * {@link StorageTool#execute} returns a code instead of calling {@code System.exit}.
     */
    void format(NodeSpec node) {
        ByteArrayOutputStream captured = new ByteArrayOutputStream();
        List<String> arguments = new ArrayList<>(
                List.of("format", "--config", node.propertiesFile().toString(), "--cluster-id", clusterId));
        security.ifPresent(sec -> arguments.addAll(sec.formatArguments()));
        String[] args = arguments.toArray(String[]::new);
        int code;
        try (PrintStream out = new PrintStream(captured, true, StandardCharsets.UTF_8)) {
            code = StorageTool.execute(args, out);
        } catch (Exception e) {
            throw new IllegalStateException(
                    "Formatting storage of node " + node.nodeId() + " failed: "
                            + captured.toString(StandardCharsets.UTF_8),
                    e);
        }
        if (code != 0) {
            throw new IllegalStateException("Formatting storage of node " + node.nodeId() + " exited with " + code
                    + ": " + captured.toString(StandardCharsets.UTF_8));
        }
    }
}
