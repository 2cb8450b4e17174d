package io.weir.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.weir.common.KeyValue;
import io.weir.testing.CrashApps;
import io.weir.testing.CrashTestApp;
import io.weir.testkit.ChildJvm;
import io.weir.testkit.KafkaExtension;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Delivery guarantees under SIGKILL: an application process is killed at random points while it
 * processes 200k records, and restarted each time. Under exactly-once the read_committed output
 * holds each input's result exactly once, in input order per key; under at-least-once it holds
 * each at least once.
 */
class CrashRecoveryIT {

    @RegisterExtension
    static final KafkaExtension KAFKA = KafkaExtension.sharedPerRun();

    private static final int RECORDS = 200_000;
    private static final int KEYS = 1_000;

    @Test
    void outputHoldsEveryResultExactlyOnceAfterRepeatedSigkill() throws Exception {
        List<ConsumerRecord<String, String>> out = runWithKills("exactly_once");
        assertExactlyOnceInOrder(out);
    }

    @Test
    void atLeastOnceLosesNothingAfterRepeatedSigkill() throws Exception {
        List<ConsumerRecord<String, String>> out = runWithKills("at_least_once");
        Set<Integer> ids = new HashSet<>();
        for (ConsumerRecord<String, String> r : out) {
            ids.add(Integer.parseInt(r.value().substring(0, r.value().indexOf(':'))));
        }
        assertThat(ids).hasSize(RECORDS);
        assertThat(out.size()).isGreaterThanOrEqualTo(RECORDS);
    }

    /** Feeds the input, kills the app three times at random points, and reads the final output. */
    private List<ConsumerRecord<String, String>> runWithKills(String guarantee) throws Exception {
        String input = KAFKA.uniqueTopic("crash-in", 4);
        String output = KAFKA.uniqueTopic("crash-out", 4);
        String appId = "crash-" + input;
        Path stateDir = Files.createTempDirectory("weir-crash-");

        List<KeyValue<String, String>> records = new ArrayList<>(RECORDS);
        for (int i = 0; i < RECORDS; i++) {
            records.add(KeyValue.of("key-" + (i % KEYS), Integer.toString(i)));
        }
        KAFKA.client().produceStrings(input, records);

        long seed = System.nanoTime();
        Random random = new Random(seed);
        int kills = 0;
        for (int round = 0; round < 3; round++) {
            try (ChildJvm app = startApp(input, output, stateDir, appId, guarantee)) {
                // Kill somewhere in the next stretch of output, committed or not.
                long target = outputEndOffsets(output) + 5_000 + random.nextInt(40_000);
                awaitEndOffsetsAtLeast(output, target, app);
                app.kill();
                kills++;
            }
        }
        try (ChildJvm app = startApp(input, output, stateDir, appId, guarantee)) {
            // Wait for every id (under at-least-once the count alone could be reached by repeats).
            KAFKA.client()
                    .readStringsUntil(
                            output,
                            l -> l.size() >= RECORDS
                                    && l.stream()
                                                    .map(ConsumerRecord::value)
                                                    .distinct()
                                                    .count()
                                            >= RECORDS,
                            Duration.ofMinutes(3));
            assertThat(app.terminate())
                    .as("exit code after SIGTERM (143 = ended by the signal, after the shutdown hook)")
                    .isIn(0, 143);
        }
        assertThat(kills).as("kills (seed %d)", seed).isEqualTo(3);
        // SIGTERM committed the last work: the group's offsets are at the end of the input. Under
        // exactly-once the offsets are part of the last transaction, and the coordinator writes its
        // commit markers after the commit returned to the (by now exited) app: until the marker is
        // in, the group still shows the offsets of the transaction before. Wait for the end.
        await().atMost(Duration.ofSeconds(60))
                .untilAsserted(() -> assertThat(committedOffsets(appId))
                        .as("committed input offsets (seed %d)", seed)
                        .isEqualTo(RECORDS));
        // Read everything committed, to the end: a late duplicate cannot hide.
        return KAFKA.client().readAllCommittedStrings(output, Duration.ofMinutes(1));
    }

    /** The sum of the group's committed offsets over the input's partitions. */
    private static long committedOffsets(String appId) throws Exception {
        return KAFKA
                .admin()
                .listConsumerGroupOffsets(appId)
                .partitionsToOffsetAndMetadata()
                .get(30, TimeUnit.SECONDS)
                .values()
                .stream()
                .mapToLong(OffsetAndMetadata::offset)
                .sum();
    }

    private static ChildJvm startApp(String input, String output, Path stateDir, String appId, String guarantee) {
        return CrashApps.start(
                CrashTestApp.class, KAFKA.bootstrapServers(), input, output, stateDir.toString(), appId, guarantee);
    }

    private static long outputEndOffsets(String topic) {
        return KAFKA.client().countPerPartition(topic).values().stream()
                .mapToLong(Long::longValue)
                .sum();
    }

    private static void awaitEndOffsetsAtLeast(String topic, long target, ChildJvm app) {
        await().atMost(Duration.ofMinutes(2))
                .pollInterval(Duration.ofMillis(20))
                .until(() -> {
                    if (!app.isAlive()) {
                        throw new AssertionError("the app died by itself:\n" + app.outputTail(40));
                    }
                    return outputEndOffsets(topic) >= target;
                });
    }

    private static void assertExactlyOnceInOrder(List<ConsumerRecord<String, String>> out) {
        Set<Integer> seen = new HashSet<>();
        List<Integer> duplicates = new ArrayList<>();
        Map<Integer, Integer> lastPerPartition = new HashMap<>();
        List<String> outOfOrder = new ArrayList<>();
        for (ConsumerRecord<String, String> r : out) {
            assertThat(r.value()).endsWith(":done");
            int id = Integer.parseInt(r.value().substring(0, r.value().indexOf(':')));
            assertThat(r.key()).isEqualTo("key-" + (id % KEYS));
            if (!seen.add(id)) {
                duplicates.add(id);
            }
            // Input and output have 4 partitions and the same key partitioner: output partition p
            // holds exactly input partition p's results, whose ids were written in increasing order.
            Integer last = lastPerPartition.put(r.partition(), id);
            if (last != null && last > id) {
                outOfOrder.add("partition " + r.partition() + ": " + last + " then " + id);
            }
        }
        assertThat(duplicates).as("duplicated ids").isEmpty();
        assertThat(outOfOrder).as("order per partition").isEmpty();
        assertThat(seen).hasSize(RECORDS);
        assertThat(out).hasSize(RECORDS);
    }
}
