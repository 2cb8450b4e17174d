package io.weir.testkit;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ClusterLayoutTest {

    @TempDir
    Path dir;

    @Test
    void singleBrokerSizesInternalTopicsForOneReplica() {
        Map<String, String> settings = ClusterLayout.combined(1, dir, ClusterLayout.BrokerPorts.PICKED_BEFORE_START)
                .commonSettings();
        assertThat(settings)
                .containsEntry("offsets.topic.replication.factor", "1")
                .containsEntry("transaction.state.log.replication.factor", "1")
                .containsEntry("transaction.state.log.min.isr", "1")
                .containsEntry("min.insync.replicas", "1")
                .containsEntry("group.initial.rebalance.delay.ms", "0")
                .containsEntry("auto.create.topics.enable", "false");
    }

    @Test
    void threeBrokersReplicateThreeTimesWithTwoInSync() {
        Map<String, String> settings = ClusterLayout.dedicatedController(3, dir).commonSettings();
        assertThat(settings)
                .containsEntry("offsets.topic.replication.factor", "3")
                .containsEntry("transaction.state.log.min.isr", "2")
                .containsEntry("min.insync.replicas", "2");
    }

    @Test
    void dedicatedControllerLayoutListsOnlyBrokersForClients() {
        ClusterLayout layout = ClusterLayout.dedicatedController(3, dir);
        assertThat(layout.nodes).hasSize(4);
        assertThat(layout.brokers()).extracting(NodeSpec::nodeId).containsExactly(1, 2, 3);
        assertThat(layout.bootstrapServers().split(",")).hasSize(3);

        Map<String, String> controller = layout.writeProperties(layout.node(0), Map.of());
        assertThat(controller)
                .containsEntry("process.roles", "controller")
                .containsEntry("default.replication.factor", "3")
                .doesNotContainKey("advertised.listeners");
        Map<String, String> broker = layout.writeProperties(layout.node(1), Map.of("num.io.threads", "2"));
        assertThat(broker)
                .containsEntry("process.roles", "broker")
                .containsEntry("num.io.threads", "2")
                .doesNotContainKey("default.replication.factor");
        assertThat(broker.get("controller.quorum.voters"))
                .isEqualTo(layout.node(0).voter());
        assertThat(layout.node(1).propertiesFile()).exists();
    }

    @Test
    void inProcessBrokersListenOnPortZeroAndClientsGetThePortsTheyBound() {
        ClusterLayout layout = ClusterLayout.dedicatedController(2, dir).withExternalListener("10.0.0.1");
        Map<String, String> broker = layout.writeProperties(layout.node(1), Map.of());
        assertThat(broker.get("listeners")).isEqualTo("PLAINTEXT://127.0.0.1:0,EXTERNAL://0.0.0.0:0");
        Map<String, String> controller = layout.writeProperties(layout.node(0), Map.of());
        assertThat(layout.node(0).controllerPort())
                .as("the voters name it before the start")
                .isPositive();
        assertThat(controller.get("listeners")).endsWith(":" + layout.node(0).controllerPort());

        ClusterLayout bound = layout.withBoundPorts(Map.of(1, 40001, 2, 40002), Map.of(1, 40011, 2, 40012));
        assertThat(bound.bootstrapServers()).isEqualTo("127.0.0.1:40001,127.0.0.1:40002");
        assertThat(bound.external.orElseThrow().address(2)).isEqualTo("10.0.0.1:40012");
        assertThat(bound.node(0).controllerPort()).isEqualTo(layout.node(0).controllerPort());
    }

    @Test
    void childProcessNodesHaveTheirPortsBeforeTheyStart() {
        ClusterLayout layout = ClusterLayout.combined(3, dir, ClusterLayout.BrokerPorts.PICKED_BEFORE_START);
        assertThat(layout.nodes).allSatisfy(n -> {
            assertThat(n.brokerPort()).isPositive();
            assertThat(n.controllerPort()).isPositive();
        });
        assertThat(layout.nodes.stream()
                        .flatMap(n -> java.util.stream.Stream.of(n.brokerPort(), n.controllerPort()))
                        .distinct()
                        .count())
                .as("distinct ports")
                .isEqualTo(6);
    }

    @Test
    void aTakenPortIsRecognisedAndRetriedWithNewPorts() {
        java.util.concurrent.atomic.AtomicInteger attempts = new java.util.concurrent.atomic.AtomicInteger();
        String started = FreePorts.retryIfTaken("test", () -> {
            if (attempts.incrementAndGet() < FreePorts.ATTEMPTS) {
                throw new IllegalStateException("node log: java.net.BindException: Address already in use");
            }
            return "up";
        });
        assertThat(started).isEqualTo("up");
        assertThat(attempts).hasValue(FreePorts.ATTEMPTS);
        attempts.set(0);
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> FreePorts.retryIfTaken("test", () -> {
                    attempts.incrementAndGet();
                    throw new IllegalStateException("not reached within 60000 ms");
                }))
                .hasMessageContaining("not reached");
        assertThat(attempts).as("another failure is not retried").hasValue(1);
    }
}
