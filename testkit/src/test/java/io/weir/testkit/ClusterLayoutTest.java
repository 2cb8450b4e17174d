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
        Map<String, String> settings = ClusterLayout.combined(1, dir, ClusterLayout.BrokerPorts.PICKED_BEFORE_START).commonSettings();
        assertThat(settings).containsEntry("offsets.topic.replication.factor", "1")
                .containsEntry("transaction.state.log.replication.factor", "1")
                .containsEntry("transaction.state.log.min.isr", "1")
                .containsEntry("min.insync.replicas", "1")
                .containsEntry("group.initial.rebalance.delay.ms", "0")
                .containsEntry("auto.create.topics.enable", "false");
    }

    @Test
    void threeBrokersReplicateThreeTimesWithTwoInSync() {
        Map<String, String> settings = ClusterLayout.dedicatedController(3, dir).commonSettings();
        assertThat(settings).containsEntry("offsets.topic.replication.factor", "3")
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
        assertThat(controller).containsEntry("process.roles", "controller")
                .containsEntry("default.replication.factor", "3")
                .doesNotContainKey("advertised.listeners");
        Map<String, String> broker = layout.writeProperties(layout.node(1), Map.of("num.io.threads", "2"));
        assertThat(broker).containsEntry("process.roles", "broker")
                .containsEntry("num.io.threads", "2")
                .doesNotContainKey("default.replication.factor");
        assertThat(broker.get("controller.quorum.voters")).isEqualTo(layout.node(0).voter());
        assertThat(layout.node(1).propertiesFile()).exists();
    }
}
