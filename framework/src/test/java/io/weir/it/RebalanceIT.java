package io.weir.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.weir.Topology;
import io.weir.TopologyBuilder;
import io.weir.WeirApp;
import io.weir.common.KeyValue;
import io.weir.serde.Serdes;
import io.weir.testing.TestApps;
import io.weir.testkit.KafkaExtension;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Group membership changes while records flow: two instances share the work, a third joins, one
 * leaves; the committed output holds every result exactly once.
 */
class RebalanceIT {

    @RegisterExtension
    static final KafkaExtension KAFKA = KafkaExtension.sharedPerRun();

    private static final int CHUNK = 30_000;

    @Test
    void instancesJoiningAndLeavingKeepOutputExactlyOnce() throws Exception {
        String input = KAFKA.uniqueTopic("rebalance-in", 8);
        String output = KAFKA.uniqueTopic("rebalance-out", 8);
        String appId = "rebalance-" + input;
        TopologyBuilder b = new TopologyBuilder();
        b.stream(Serdes.strings(), Serdes.strings(), input)
                .mapValues(v -> v + ":done")
                .to(output, Serdes.strings(), Serdes.strings());
        Topology topology = b.build();

        produceChunk(input, 0);
        WeirApp first = start(topology, appId, "one");
        WeirApp second = start(topology, appId, "two");
        KAFKA.client().readUncommittedAtLeast(output, CHUNK / 3, Duration.ofMinutes(1));

        produceChunk(input, 1);
        WeirApp third = start(topology, appId, "three");
        KAFKA.client().readUncommittedAtLeast(output, CHUNK + CHUNK / 3, Duration.ofMinutes(1));

        produceChunk(input, 2);
        first.close(Duration.ofSeconds(30));
        assertThat(first.state()).isEqualTo(WeirApp.State.STOPPED);
        KAFKA.client().readAtLeast(output, 3 * CHUNK, Duration.ofMinutes(2));

        // RUNNING follows the threads on a tick of the monitor, once they are done rebalancing: the output
        // can be complete while a follow-up round (tasks moving between second and third for balance,
        // handed over in a second rebalance) still runs. A generous deadline costs nothing when early.
        await().atMost(Duration.ofSeconds(60)).until(() -> second.state() == WeirApp.State.RUNNING);
        await().atMost(Duration.ofSeconds(60)).until(() -> third.state() == WeirApp.State.RUNNING);
        second.close(Duration.ofSeconds(30));
        third.close(Duration.ofSeconds(30));

        List<ConsumerRecord<String, String>> out =
                KAFKA.client().readAllCommittedStrings(output, Duration.ofMinutes(1));
        Set<String> seen = new HashSet<>();
        List<String> duplicates = new ArrayList<>();
        for (ConsumerRecord<String, String> r : out) {
            if (!seen.add(r.value())) {
                duplicates.add(r.value());
            }
        }
        assertThat(duplicates).as("duplicates").isEmpty();
        assertThat(seen).hasSize(3 * CHUNK);
    }

    private static WeirApp start(Topology topology, String appId, String instance) {
        return TestApps.start(
                topology,
                TestApps.config(KAFKA.bootstrapServers(), appId)
                        .instanceId(instance)
                        .numStreamThreads(2)
                        .build());
    }

    private static void produceChunk(String topic, int chunk) {
        List<KeyValue<String, String>> records = new ArrayList<>(CHUNK);
        for (int i = chunk * CHUNK; i < (chunk + 1) * CHUNK; i++) {
            records.add(KeyValue.of("key-" + (i % 500), Integer.toString(i)));
        }
        KAFKA.client().produceStrings(topic, records);
    }
}
