package io.weir.samples.counter;

import static org.assertj.core.api.Assertions.assertThat;

import io.weir.common.KeyValue;
import io.weir.samples.common.SampleCommand;
import io.weir.serde.Serdes;
import io.weir.testkit.ChildJvm;
import io.weir.testkit.KafkaExtension;
import io.weir.testkit.Records;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.serialization.LongDeserializer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * The worked example's keyed counter on a real broker, with an instance SIGKILLed in the middle: the sums
 * come out as without the failure, and every sum emitted on the way is a true running sum.
 */
class KeyedCounterIT {

    @RegisterExtension
    static final KafkaExtension KAFKA = KafkaExtension.sharedPerRun();

    private static final Duration TIMEOUT = Duration.ofSeconds(90);
    private static final int REPEATS = 500;

    @TempDir
    Path stateDir;

    @Test
    void sumsAfterASigkilledInstanceAreTheSumsWithoutIt() {
        String input = KAFKA.uniqueTopic("increments", 2);
        String output = KAFKA.uniqueTopic("running-sums", 2);
        String appId = "keyed-counter-" + input;
        // The worked example's records ["a",2] ["b",2] ["a",2] ["c",1], fed REPEATS times in each of three rounds.
        produceSeedExample(input);

        try (ChildJvm first = instance(appId, input, output, 1)) {
            first.awaitOutput(KeyedCounterInstance.STARTED, TIMEOUT);
            KAFKA.client().readUntil(output, r -> !r.isEmpty(), TIMEOUT);
            produceSeedExample(input); // arriving while it counts: the kill lands mid-stream
            assertThat(first.kill()).as("SIGKILL").isEqualTo(137);
        }
        produceSeedExample(input);

        Map<String, Long> expected = Map.of("a", 4L * 3 * REPEATS, "b", 2L * 3 * REPEATS, "c", 1L * 3 * REPEATS);
        try (ChildJvm second = instance(appId, input, output, 2)) {
            KAFKA.client().readUntil(output, r -> Records.lastLongPerKey(r).equals(expected), TIMEOUT);
            assertThat(second.terminate()).as("graceful stop on SIGTERM").isIn(0, 143);
        }

        List<ConsumerRecord<String, Long>> sums =
                KAFKA.client().readAllCommitted(output, new StringDeserializer(), new LongDeserializer(), TIMEOUT);
        Map<String, Long> last = new TreeMap<>();
        Map<String, Long> previous = new HashMap<>();
        for (ConsumerRecord<String, Long> r : sums) {
            long sum = r.value();
            // a's running sums are 2, 4, 6, ...; b's 2, 4, ... (every second record); c's 1, 2, 3, ...
            assertThat(sum).as("a running sum of %s", r.key()).isPositive().isLessThanOrEqualTo(expected.get(r.key()));
            if (!r.key().equals("c")) {
                assertThat(sum % 2).as("a running sum of %s", r.key()).isZero();
            }
            assertThat(sum)
                    .as("sums of %s strictly increase: none repeated", r.key())
                    .isGreaterThan(previous.getOrDefault(r.key(), 0L));
            previous.put(r.key(), sum);
            last.put(r.key(), sum);
        }
        assertThat(last).isEqualTo(expected);
    }

    @Test
    void sampleCommandKillsAnInstanceAndPassesItsCheck() {
        String input = KAFKA.uniqueTopic("increments", 4);
        String output = KAFKA.uniqueTopic("running-sums", 4);
        String appId = "keyed-counter-" + input;

        int exit = SampleCommand.run(
                new KeyedCounterApp(),
                KAFKA,
                appId,
                stateDir,
                "--input-topic",
                input,
                "--output-topic",
                output,
                "--records",
                "12000",
                "--seed",
                "5");

        assertThat(exit).isZero();
        assertThat(stateDir.resolve("instance-1.log")).content().contains(KeyedCounterInstance.STARTED);
        assertThat(stateDir.resolve("instance-2.log")).content().contains(KeyedCounterInstance.STARTED);
        // Checked here independently of the sample: running sums computed from the input topic
        // (a key's records are in one partition, in order), against the output as committed.
        List<ConsumerRecord<byte[], byte[]>> fed = KAFKA.client().readAtLeast(input, 12000, TIMEOUT);
        assertThat(fed).hasSize(12000);
        Map<String, Set<Long>> running = new HashMap<>();
        Map<String, Long> totals = new TreeMap<>();
        for (ConsumerRecord<byte[], byte[]> r : fed) {
            String key = new String(r.key(), StandardCharsets.UTF_8);
            long total = totals.merge(key, ByteBuffer.wrap(r.value()).getLong(), Long::sum);
            running.computeIfAbsent(key, k -> new HashSet<>()).add(total);
        }
        Map<String, Long> last = new TreeMap<>();
        for (ConsumerRecord<String, Long> r :
                KAFKA.client().readAllCommitted(output, new StringDeserializer(), new LongDeserializer(), TIMEOUT)) {
            assertThat(running.get(r.key())).as("running sums of %s", r.key()).contains(r.value());
            assertThat(r.value())
                    .as("sums of %s strictly increase", r.key())
                    .isGreaterThan(last.getOrDefault(r.key(), 0L));
            last.put(r.key(), r.value());
        }
        assertThat(last).isEqualTo(totals);
        assertThat(totals).containsOnlyKeys("a", "b", "c", "d", "e");
    }

    private ChildJvm instance(String appId, String input, String output, int n) {
        return KeyedCounterInstance.startChild(KAFKA.bootstrapServers(), appId, input, output, stateDir, n);
    }

    private static void produceSeedExample(String topic) {
        List<KeyValue<byte[], byte[]>> records = new ArrayList<>();
        for (int i = 0; i < REPEATS; i++) {
            for (Increment inc : SampleIncrements.SEED_EXAMPLE) {
                records.add(KeyValue.of(
                        inc.key().getBytes(StandardCharsets.UTF_8),
                        Serdes.longs().serialize(topic, inc.amount())));
            }
        }
        KAFKA.client().produce(topic, records);
    }
}
