package io.weir.samples.wordcount;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.weir.WeirApp;
import io.weir.common.KeyValue;
import io.weir.samples.common.SampleCommand;
import io.weir.testkit.KafkaExtension;
import io.weir.testkit.Records;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.serialization.LongDeserializer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/** The word count on a real broker under exactly-once: through the repartition topic and the store. */
class WordCountIT {

    @RegisterExtension
    static final KafkaExtension KAFKA = KafkaExtension.sharedPerRun();

    private static final Duration TIMEOUT = Duration.ofSeconds(90);

    @TempDir
    Path stateDir;

    @Test
    void countsEveryWordOnceAcrossARestart() {
        String lines = KAFKA.uniqueTopic("lines", 3);
        String counts = KAFKA.uniqueTopic("word-counts", 3);
        String appId = "word-count-" + lines;
        List<String> batch = new ArrayList<>();
        for (int i = 0; i < 100; i++) {
            batch.add("The cat sat on the mat.");
            batch.add("The dog sat.");
            batch.add("A cat, a dog!");
        }
        produce(lines, batch, 0);
        Map<String, Long> first =
                Map.of("the", 300L, "cat", 200L, "sat", 200L, "on", 100L, "mat", 100L, "dog", 200L, "a", 200L);
        try (WeirApp app = start(appId, lines, counts)) {
            KAFKA.client().readUntil(counts, r -> Records.lastLongPerKey(r).equals(first), TIMEOUT);
            // RUNNING follows the threads on a tick of the monitor once they are done with their
            // rebalances (a generous deadline: a follow-up rebalance may run first).
            await().atMost(Duration.ofSeconds(60)).until(() -> app.state() == WeirApp.State.RUNNING);
        }

        // A restart goes on from the committed counts: nothing counted twice, nothing lost.
        produce(lines, List.of("The end.", "...of the cat"), batch.size());
        Map<String, Long> second = new TreeMap<>(first);
        second.putAll(Map.of("the", 302L, "cat", 201L, "end", 1L, "of", 1L));
        try (WeirApp app = start(appId, lines, counts)) {
            KAFKA.client().readUntil(counts, r -> Records.lastLongPerKey(r).equals(second), TIMEOUT);
            // RUNNING follows the threads on a tick of the monitor once they are done with their
            // rebalances (a generous deadline: a follow-up rebalance may run first).
            await().atMost(Duration.ofSeconds(60)).until(() -> app.state() == WeirApp.State.RUNNING);
        }

        List<ConsumerRecord<String, Long>> all =
                KAFKA.client().readAllCommitted(counts, new StringDeserializer(), new LongDeserializer(), TIMEOUT);
        Map<String, Long> last = new TreeMap<>();
        Map<String, Long> previous = new HashMap<>();
        for (ConsumerRecord<String, Long> r : all) {
            assertThat(r.value())
                    .as("count of %s", r.key())
                    .isGreaterThan(previous.getOrDefault(r.key(), 0L))
                    .isLessThanOrEqualTo(second.get(r.key()));
            previous.put(r.key(), r.value());
            last.put(r.key(), r.value());
        }
        assertThat(last).isEqualTo(second);
    }

    @Test
    void sampleCommandPassesItsCheckAgainstAnExistingCluster() {
        String lines = KAFKA.uniqueTopic("lines", 4);
        String counts = KAFKA.uniqueTopic("word-counts", 4);
        String appId = "word-count-" + lines;

        int exit = SampleCommand.run(
                new WordCountApp(),
                KAFKA,
                appId,
                stateDir,
                "--input-topic",
                lines,
                "--output-topic",
                counts,
                "--lines",
                "300",
                "--seed",
                "7");

        assertThat(exit).isZero();
        // Checked here independently of the sample: the input as fed, the output as committed.
        List<String> fed = KAFKA.client().readStringsAtLeast(lines, 300, TIMEOUT).stream()
                .map(ConsumerRecord::value)
                .toList();
        assertThat(fed).containsExactlyInAnyOrderElementsOf(new SampleText(7).lines(300));
        Map<String, Long> last = new TreeMap<>();
        KAFKA.client()
                .readAllCommitted(counts, new StringDeserializer(), new LongDeserializer(), TIMEOUT)
                .forEach(r -> last.put(r.key(), r.value()));
        assertThat(last)
                .isEqualTo(WordCount.expectedCounts(new SampleText(7).lines(300)))
                .isEqualTo(WordCount.expectedCounts(fed));
    }

    @Test
    void sampleCommandRefusesTopicsWithEarlierRecords() {
        String lines = KAFKA.uniqueTopic("lines", 1);
        String counts = KAFKA.uniqueTopic("word-counts", 1);
        KAFKA.client().produceStrings(lines, List.of(KeyValue.of("k", "an earlier line")));

        int exit = SampleCommand.run(
                new WordCountApp(),
                KAFKA,
                "word-count-" + lines,
                stateDir,
                "--input-topic",
                lines,
                "--output-topic",
                counts);

        assertThat(exit).isEqualTo(2);
        assertThat(KAFKA.client().countPerPartition(counts)).containsOnly(Map.entry(0, 0L));
    }

    private WeirApp start(String appId, String lines, String counts) {
        return WeirApp.create(WordCount.topology(lines, counts), SampleCommand.config(KAFKA, appId, stateDir))
                .start();
    }

    private static void produce(String topic, List<String> lines, int firstIndex) {
        List<KeyValue<String, String>> records = new ArrayList<>();
        for (int i = 0; i < lines.size(); i++) {
            records.add(KeyValue.of("line-" + (firstIndex + i), lines.get(i)));
        }
        KAFKA.client().produceStrings(topic, records);
    }
}
