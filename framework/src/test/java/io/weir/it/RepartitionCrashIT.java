package io.weir.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.weir.common.KeyValue;
import io.weir.testing.CountingApp;
import io.weir.testing.CrashApps;
import io.weir.testing.Outputs;
import io.weir.testkit.ChildJvm;
import io.weir.testkit.KafkaExtension;
import io.weir.testkit.Records;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * {@code groupBy} on a new key across two application processes, one SIGKILLed in the middle and
 * restarted: the counts per new key (which crossed the repartition topic inside transactions)
 * are exact.
 */
class RepartitionCrashIT {

    @RegisterExtension
    static final KafkaExtension KAFKA = KafkaExtension.sharedPerRun();

    private static final int RECORDS = 300_000;
    private static final int GROUPS = 5_000;

    @Test
    void countsByANewKeyAreExactAcrossTwoInstancesWithASigkill() throws Exception {
        String input = KAFKA.uniqueTopic("regroup-in", 4);
        String output = KAFKA.uniqueTopic("regroup-out", 4);
        String appId = "regroup-" + input;
        Map<String, Long> model = new HashMap<>();
        List<KeyValue<String, String>> records = new ArrayList<>(RECORDS);
        for (int i = 0; i < RECORDS; i++) {
            String group = "g" + ((i * 31L) % GROUPS);
            records.add(KeyValue.of("id-" + i, group));
            model.merge(group, 1L, Long::sum);
        }
        KAFKA.client().produceStrings(input, records);
        Path dirA = Files.createTempDirectory("weir-regroup-a-");
        Path dirB = Files.createTempDirectory("weir-regroup-b-");

        try (ChildJvm b = start(input, output, dirB, appId)) {
            try (ChildJvm a = start(input, output, dirA, appId)) {
                await().atMost(Duration.ofMinutes(2))
                        .pollInterval(Duration.ofMillis(50))
                        .until(() -> Outputs.endOffsets(KAFKA.client(), output) >= GROUPS);
                a.kill();
            }
            try (ChildJvm a = start(input, output, dirA, appId)) {
                List<ConsumerRecord<byte[], byte[]>> out = KAFKA.client()
                        .readUntil(
                                output,
                                new ByteArrayDeserializer(),
                                new ByteArrayDeserializer(),
                                org.apache.kafka.common.IsolationLevel.READ_COMMITTED,
                                r -> Records.lastLongPerKey(r).equals(model),
                                Duration.ofMinutes(3));
                assertThat(Records.lastLongPerKey(out)).isEqualTo(model);
                a.terminate();
            }
            b.terminate();
        }
        assertThat(Records.lastLongPerKey(KAFKA.client()
                        .readAllCommitted(
                                output,
                                new ByteArrayDeserializer(),
                                new ByteArrayDeserializer(),
                                Duration.ofMinutes(1))))
                .isEqualTo(model);
    }

    private static ChildJvm start(String input, String output, Path stateDir, String appId) {
        return CrashApps.start(
                CountingApp.class, KAFKA.bootstrapServers(), input, output, stateDir.toString(), appId, "by-value");
    }
}
