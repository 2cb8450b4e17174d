package io.weir.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.weir.Topology;
import io.weir.TopologyBuilder;
import io.weir.config.WeirConfig;
import io.weir.serde.Serdes;
import java.util.Map;
import java.util.Set;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.Test;

/**
 * {@code weir reset} never deletes a topic the application reads: a table's compacted source topic
 * serves as its store's changelog, but it is the user's data, even when named like a changelog.
 */
class ResetKeepsInputsTest {

    private final WeirConfig config = WeirConfig.builder()
            .environment(Map.of())
            .applicationId("shop")
            .bootstrapServers("localhost:9092")
            .build();

    @Test
    void aSourceTopicOfTheTopologyIsNeverDeleted() {
        TopologyBuilder b = new TopologyBuilder();
        b.table(Serdes.strings(), Serdes.strings(), "shop-customers-changelog", "customers");
        Topology topology = b.build();

        Set<String> kept = ResetCommand.neverInputs(
                Set.of("shop-customers-changelog", "shop-x-repartition"), Set.of(), topology, Map.of(), config);

        assertThat(kept).containsExactly("shop-x-repartition");
    }

    @Test
    void aTopicTheGroupReadsIsNeverDeletedButARepartitionTopicIs() {
        Map<TopicPartition, OffsetAndMetadata> committed = Map.of(
                new TopicPartition("shop-customers-changelog", 0), new OffsetAndMetadata(10),
                new TopicPartition("shop-x-repartition", 0), new OffsetAndMetadata(3));

        Set<String> kept = ResetCommand.neverInputs(
                Set.of("shop-customers-changelog", "shop-x-repartition", "shop-counts-changelog"),
                Set.of(),
                null,
                committed,
                config);

        assertThat(kept).containsExactlyInAnyOrder("shop-x-repartition", "shop-counts-changelog");
    }

    @Test
    void anInputBeingResetIsNeverDeleted() {
        Set<String> kept = ResetCommand.neverInputs(
                Set.of("shop-customers-changelog"), Set.of("shop-customers-changelog"), null, Map.of(), config);

        assertThat(kept).isEmpty();
    }
}
