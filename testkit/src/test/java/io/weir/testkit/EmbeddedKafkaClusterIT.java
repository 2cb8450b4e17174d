package io.weir.testkit;

import static org.assertj.core.api.Assertions.assertThat;

import io.weir.common.KeyValue;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.common.TopicPartitionInfo;
import org.junit.jupiter.api.Test;

class EmbeddedKafkaClusterIT {

    @Test
    void threeBrokersServeATopicReplicatedThreeTimes() {
        try (EmbeddedKafka kafka = EmbeddedKafka.builder().brokers(3).start();
                KafkaTestClient client = KafkaTestClient.connect(kafka.bootstrapServers())) {
            assertThat(kafka.brokerCount()).isEqualTo(3);
            assertThat(kafka.bootstrapServers().split(",")).hasSize(3);

            client.createTopics(
                    List.of(new NewTopic("replicated", 3, (short) 3).configs(Map.of("min.insync.replicas", "2"))));
            List<TopicPartitionInfo> partitions = client.describePartitions("replicated");
            assertThat(partitions).hasSize(3).allSatisfy(p -> {
                assertThat(p.replicas()).hasSize(3);
                assertThat(p.isr()).hasSize(3);
            });
            assertThat(partitions.stream().map(p -> p.leader().id()).distinct().count())
                    .as("leaders spread over brokers")
                    .isGreaterThan(1);

            client.produceStrings(
                    "replicated",
                    IntStream.range(0, 30)
                            .mapToObj(i -> KeyValue.of("k" + i, "v" + i))
                            .collect(Collectors.toList()));
            assertThat(client.readStringsAtLeast("replicated", 30, Duration.ofSeconds(30)))
                    .hasSize(30);
        }
    }
}
