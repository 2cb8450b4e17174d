package io.weir.testkit;

import static org.assertj.core.api.Assertions.assertThat;

import io.weir.common.KeyValue;
import java.time.Duration;
import java.util.List;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.apache.kafka.clients.admin.NewTopic;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * Brokers as child processes, killed and restarted. Every build uses them through framework's
 * FaultSuiteIT (which SIGKILLs and restarts nodes of a three-node cluster under load) and StallIT;
 * these direct checks run under {@code -Pfull}, since the framework's build waits for testkit's
 * (they took 32 s of the critical path).
 */
@Tag("full")
class ChildProcessKafkaIT {

    private static final Duration TIMEOUT = Duration.ofSeconds(60);

    @Test
    void brokerKilledWithSigkillServesItsDataAgainAfterRestart() {
        try (ChildProcessKafka kafka = ChildProcessKafka.start(1);
                KafkaTestClient client = KafkaTestClient.connect(kafka.bootstrapServers())) {
            client.createTopic("survivor", 2);
            client.produceStrings("survivor", records(0, 50));

            kafka.kill(1);
            assertThat(kafka.isAlive(1)).isFalse();
            kafka.restart(1);
            assertThat(kafka.isAlive(1)).isTrue();

            assertThat(client.readStringsAtLeast("survivor", 50, TIMEOUT)).hasSize(50);
            client.produceStrings("survivor", records(50, 60));
            assertThat(client.readStringsAtLeast("survivor", 60, TIMEOUT)).hasSize(60);
            assertThat(kafka.logFile(1)).exists();
        }
    }

    @Test
    void threeNodeClusterKeepsServingWhileOneNodeIsKilledAndTheNodeRejoins() {
        try (ChildProcessKafka kafka = ChildProcessKafka.start(3);
                KafkaTestClient client = KafkaTestClient.connect(kafka.bootstrapServers())) {
            client.createTopics(List.of(new NewTopic("replicated", 3, (short) 3)));
            client.produceStrings("replicated", records(0, 30));

            kafka.kill(2);
            // min.insync.replicas is 2: acks=all writes still succeed with one node down
            client.produceStrings("replicated", records(30, 60));
            kafka.restart(2);

            Awaitility.await()
                    .atMost(TIMEOUT)
                    .untilAsserted(() -> assertThat(client.describePartitions("replicated"))
                            .allSatisfy(p -> assertThat(p.isr()).hasSize(3)));
            assertThat(client.readStringsAtLeast("replicated", 60, TIMEOUT)).hasSize(60);
        }
    }

    private static List<KeyValue<String, String>> records(int from, int to) {
        return IntStream.range(from, to)
                .mapToObj(i -> KeyValue.of("k" + i, "v" + i))
                .collect(Collectors.toList());
    }
}
