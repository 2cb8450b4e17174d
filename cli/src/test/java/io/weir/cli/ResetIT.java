package io.weir.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.weir.WeirApp;
import io.weir.cli.WeirTest.Outcome;
import io.weir.testing.CountingApp;
import io.weir.testkit.KafkaExtension;
import io.weir.testkit.Records;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * {@code weir reset} against a real broker and a running application: refused while it runs;
 * after a reset to a time the output recomputed from then equals a model; and an instance whose
 * local state predates the reset wipes it (the changelog's topic id changed) instead of reusing it,
 * even once the recreated changelog has grown past the old store's offsets.
 */
class ResetIT {

    @RegisterExtension
    static final KafkaExtension KAFKA = KafkaExtension.sharedPerRun();

    private static final Duration WAIT = Duration.ofSeconds(40);

    private static Outcome weir(String... args) {
        return WeirTest.run(args);
    }

    /** Records of keys {@code prefix0..prefix<keys-1>}, round robin, all with timestamp {@code time}. */
    private static List<ProducerRecord<byte[], byte[]>> batch(
            String topic, String prefix, int keys, int count, Instant time) {
        List<ProducerRecord<byte[], byte[]>> records = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            records.add(new ProducerRecord<>(
                    topic,
                    null,
                    time.toEpochMilli(),
                    (prefix + (i % keys)).getBytes(StandardCharsets.UTF_8),
                    ("v" + i).getBytes(StandardCharsets.UTF_8)));
        }
        return records;
    }

    private static Map<String, Long> model(List<List<ProducerRecord<byte[], byte[]>>> batches) {
        Map<String, Long> counts = new TreeMap<>();
        batches.forEach(b -> b.forEach(r -> counts.merge(new String(r.key(), StandardCharsets.UTF_8), 1L, Long::sum)));
        return counts;
    }

    /** The last count per key among the output records at or after {@code from} (per partition). */
    private static Map<String, Long> countsSince(
            List<ConsumerRecord<byte[], byte[]>> records, Map<Integer, Long> from) {
        return Records.lastLongPerKey(records.stream()
                .filter(r -> r.offset() >= from.getOrDefault(r.partition(), 0L))
                .toList());
    }

    private static Map<Integer, Long> ends(String topic) {
        Map<Integer, Long> ends = new HashMap<>();
        KAFKA.client().countPerPartition(topic).forEach(ends::put); // the log starts at 0 here
        return ends;
    }

    @Test
    void resetIsRefusedWhileRunningRecomputesFromATimeAndNeverReusesStaleLocalState() throws Exception {
        String input = KAFKA.uniqueTopic("reset-in", 2);
        String output = KAFKA.uniqueTopic("reset-out", 2);
        String app = "reset-" + input;
        String changelog = app + "-counts-changelog";
        String bootstrap = KAFKA.bootstrapServers();
        var topology = CountingApp.topology(input, output);
        Path stateA = Files.createTempDirectory("weir-reset-a-");
        Path stateB = Files.createTempDirectory("weir-reset-b-");
        Instant resetPoint = Instant.now().minus(Duration.ofHours(1));

        List<ProducerRecord<byte[], byte[]>> before = batch(input, "k", 10, 200, resetPoint.minus(Duration.ofHours(1)));
        List<ProducerRecord<byte[], byte[]>> after = batch(input, "k", 10, 100, resetPoint.plusSeconds(1));
        KAFKA.client().send(before);
        List<RecordMetadata> afterAcks = KAFKA.client().send(after);

        // 1. The application counts everything; a reset is refused while it runs.
        try (WeirApp running = Instances.start(topology, bootstrap, app, stateA, "one")) {
            Map<String, Long> all = model(List.of(before, after));
            KAFKA.client().readUntil(output, r -> Records.lastLongPerKey(r).equals(all), WAIT);
            Outcome refused = weir("reset", "-b", bootstrap, "--app", app, "--to", "earliest");
            assertThat(refused.code()).isEqualTo(Weir.FAILED);
            assertThat(refused.err()).contains("has 1 active member(s) [one-0@", "stop every instance");
            running.close(Duration.ofSeconds(30), true); // leaves the group
        }
        GroupMembers.awaitNone(KAFKA, app);
        Map<Integer, Long> oldChangelogEnds = ends(changelog);

        // 2. A dry run prints the plan and changes nothing.
        Outcome dry = weir("reset", "-b", bootstrap, "--app", app, "--to", resetPoint.toString(), "--dry-run");
        assertThat(dry.code()).as(dry.err()).isEqualTo(Weir.OK);
        assertThat(dry.out()).contains("(dry run)", input, changelog, "Dry run: nothing was changed.");
        assertThat(KAFKA.admin().listTopics().names().get()).contains(changelog);

        // 3. The reset: offsets to the first record at the time, metadata cleared, changelog deleted.
        Map<Integer, Long> outputAtReset = ends(output);
        Outcome reset = weir("reset", "-b", bootstrap, "--app", app, "--to", resetPoint.toString());
        assertThat(reset.code()).as(reset.err()).isEqualTo(Weir.OK);
        Map<TopicPartition, Long> firstAfter = new HashMap<>();
        for (RecordMetadata m : afterAcks) {
            firstAfter.merge(new TopicPartition(input, m.partition()), m.offset(), Math::min);
        }
        Map<TopicPartition, OffsetAndMetadata> committed = KAFKA.admin()
                .listConsumerGroupOffsets(app)
                .partitionsToOffsetAndMetadata()
                .get();
        firstAfter.forEach((tp, offset) -> {
            assertThat(committed.get(tp).offset()).as(tp.toString()).isEqualTo(offset);
            assertThat(committed.get(tp).metadata())
                    .as("watermark metadata of " + tp)
                    .isEmpty();
            assertThat(reset.out()).containsPattern(tp.topic() + "\\s+" + tp.partition() + "\\s+\\d+\\s+" + offset);
        });
        assertThat(KAFKA.admin().listTopics().names().get()).doesNotContain(changelog);

        // 4. Recompute on a fresh instance: the output from the reset on equals the model of what
        //    came after the time. More input with new keys makes the recreated changelog longer
        //    than the deleted one, so offsets alone could not tell the old state is stale.
        int newKeys = (int) (2
                        * oldChangelogEnds.values().stream()
                                .mapToLong(Long::longValue)
                                .sum())
                + 20;
        List<ProducerRecord<byte[], byte[]>> more = batch(input, "u", newKeys, newKeys, Instant.now());
        try (WeirApp fresh = Instances.start(topology, bootstrap, app, stateB, "two")) {
            Map<String, Long> expected = model(List.of(after));
            KAFKA.client().readUntil(output, r -> countsSince(r, outputAtReset).equals(expected), WAIT);
            KAFKA.client().send(more);
            Map<String, Long> expected2 = model(List.of(after, more));
            KAFKA.client().readUntil(output, r -> countsSince(r, outputAtReset).equals(expected2), WAIT);
            fresh.close(Duration.ofSeconds(30), true);
        }
        Map<Integer, Long> newChangelogEnds = ends(changelog);
        oldChangelogEnds.forEach((p, end) -> assertThat(newChangelogEnds.get(p))
                .as("recreated changelog partition %d has outgrown the deleted one", p)
                .isGreaterThan(end));

        // 5. The first instance comes back with its state from before the reset: it must wipe it.
        List<ProducerRecord<byte[], byte[]>> last = batch(input, "k", 10, 30, Instant.now());
        try (WeirApp back = Instances.start(topology, bootstrap, app, stateA, "one")) {
            KAFKA.client().send(last);
            Map<String, Long> expected = model(List.of(after, more, last));
            KAFKA.client().readUntil(output, r -> countsSince(r, outputAtReset).equals(expected), WAIT);
        }
    }
}
