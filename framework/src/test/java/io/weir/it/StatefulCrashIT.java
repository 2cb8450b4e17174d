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
import io.weir.testkit.TestSizes;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Exactly-once state under SIGKILL: a counting application with 200k distinct keys (1M under
 * {@code -Pfull}) is killed three times while it works and restarted each time. The counts in the output and in the store's
 * changelog equal a model of the input, and every restart replayed only the changelog's tail,
 * not all of it (as the restore counts it reports show).
 */
class StatefulCrashIT {

    @RegisterExtension
    static final KafkaExtension KAFKA = KafkaExtension.sharedPerRun();

    private static final int KEYS = TestSizes.pick(200_000, 1_000_000);
    private static final int REPEATS = KEYS / 5;
    /** How far past the last output each round runs before its kill: a twentieth to a quarter of the keys. */
    private static final int MIN_STEP = KEYS / 20;

    private static final Pattern RESTORED = Pattern.compile("restored (\\d+) records from");

    @Test
    void countsStayExactAndRestartsReplayOnlyTheTail() throws Exception {
        String input = KAFKA.uniqueTopic("count-crash-in", 4);
        String output = KAFKA.uniqueTopic("count-crash-out", 4);
        String appId = "count-crash-" + input;
        String changelog = appId + "-counts-changelog";
        Path stateDir = Files.createTempDirectory("weir-count-crash-");

        Map<String, Long> model = new HashMap<>();
        List<KeyValue<String, String>> records = new ArrayList<>(KEYS + REPEATS);
        for (int i = 0; i < KEYS; i++) {
            records.add(KeyValue.of("k" + i, "x"));
            model.merge("k" + i, 1L, Long::sum);
        }
        for (int i = 0; i < REPEATS; i++) {
            String key = "k" + ((i * 7L) % KEYS);
            records.add(KeyValue.of(key, "y"));
            model.merge(key, 1L, Long::sum);
        }
        KAFKA.client().produceStrings(input, records);

        long seed = System.nanoTime();
        Random random = new Random(seed);
        List<String> restores = new ArrayList<>();
        for (int round = 0; round < 3; round++) {
            long changelogBefore = Outputs.endOffsets(KAFKA.client(), changelog);
            try (ChildJvm app = start(input, output, stateDir, appId)) {
                long target = Outputs.endOffsets(KAFKA.client(), output) + MIN_STEP + random.nextInt(4 * MIN_STEP);
                await().atMost(Duration.ofMinutes(3))
                        .pollInterval(Duration.ofMillis(50))
                        .until(() -> {
                            if (!app.isAlive()) {
                                throw new AssertionError("the app died:\n" + app.outputTail(40));
                            }
                            return Outputs.endOffsets(KAFKA.client(), output) >= target;
                        });
                app.kill();
                checkTailOnly(app.output(), changelogBefore, restores, seed);
            }
        }
        long changelogBefore = Outputs.endOffsets(KAFKA.client(), changelog);
        try (ChildJvm app = start(input, output, stateDir, appId)) {
            KAFKA.client()
                    .readUntil(
                            output,
                            new ByteArrayDeserializer(),
                            new ByteArrayDeserializer(),
                            org.apache.kafka.common.IsolationLevel.READ_COMMITTED,
                            new Matches(model),
                            Duration.ofMinutes(5));
            checkTailOnly(app.output(), changelogBefore, restores, seed);
            app.terminate();
        }
        System.out.println("StatefulCrashIT restores (records restored of changelog end offsets): " + restores);
        KAFKA.client()
                .readUntil(
                        changelog,
                        new ByteArrayDeserializer(),
                        new ByteArrayDeserializer(),
                        org.apache.kafka.common.IsolationLevel.READ_COMMITTED,
                        new Matches(model),
                        Duration.ofMinutes(2));
        // The output and the changelog, read to their ends, hold exactly the model's counts.
        assertThat(Records.lastLongPerKey(KAFKA.client()
                        .readAllCommitted(
                                output,
                                new ByteArrayDeserializer(),
                                new ByteArrayDeserializer(),
                                Duration.ofMinutes(2))))
                .as("output")
                .isEqualTo(model);
        assertThat(Records.lastLongPerKey(KAFKA.client()
                        .readAllCommitted(
                                changelog,
                                new ByteArrayDeserializer(),
                                new ByteArrayDeserializer(),
                                Duration.ofMinutes(2))))
                .as("store contents (its changelog)")
                .isEqualTo(model);
    }

    /** A restart may replay the tail the store had not flushed, never (close to) the whole changelog. */
    private static void checkTailOnly(String output, long changelogEndAtStart, List<String> restores, long seed) {
        Matcher m = RESTORED.matcher(output);
        long restored = 0;
        while (m.find()) {
            restored += Long.parseLong(m.group(1));
        }
        restores.add(restored + " of " + changelogEndAtStart);
        if (changelogEndAtStart > 0) {
            assertThat(restored)
                    .as("restored on restart (seed %d; restores so far %s)", seed, restores)
                    .isLessThan(changelogEndAtStart / 2);
        }
    }

    private static ChildJvm start(String input, String output, Path stateDir, String appId) {
        return CrashApps.startWithHeap(
                CountingApp.class, "1g", KAFKA.bootstrapServers(), input, output, stateDir.toString(), appId);
    }

    /**
     * True once the last value read for every key equals the model; updated incrementally, since
     * the reader calls it after every poll over everything read so far.
     */
    private static final class Matches implements java.util.function.Predicate<List<ConsumerRecord<byte[], byte[]>>> {
        private final Map<String, Long> model;
        private final Map<String, Long> last = new HashMap<>();
        private int seen;
        private int matching;

        Matches(Map<String, Long> model) {
            this.model = model;
        }

        @Override
        public boolean test(List<ConsumerRecord<byte[], byte[]>> records) {
            for (; seen < records.size(); seen++) {
                ConsumerRecord<byte[], byte[]> r = records.get(seen);
                String key = new String(r.key(), StandardCharsets.UTF_8);
                Long expected = model.get(key);
                Long before = last.put(key, ByteBuffer.wrap(r.value()).getLong());
                if (before != null && before.equals(expected)) {
                    matching--;
                }
                if (expected != null && expected.equals(last.get(key))) {
                    matching++;
                }
            }
            return matching == model.size() && last.size() == model.size();
        }
    }
}
