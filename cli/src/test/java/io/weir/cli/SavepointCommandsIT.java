package io.weir.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.weir.WeirApp;
import io.weir.cli.WeirTest.Outcome;
import io.weir.common.internal.Poll;
import io.weir.internal.config.InternalTopic;
import io.weir.testkit.KafkaExtension;
import io.weir.testkit.Records;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.admin.AlterConfigOp;
import org.apache.kafka.clients.admin.ConfigEntry;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.config.ConfigResource;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The savepoint commands on a real broker, through the CLI: a word count runs, {@code weir savepoint
 * create} and then {@code weir stop --savepoint} (which stops it) take two savepoints; {@code weir
 * savepoint restore} refuses a topology whose store changed its kind or value format, or drops a
 * store unless {@code --allow-dropped-state}; carries a renamed store with {@code --map-store} and
 * a renamed input topic with {@code --map-topic}; {@code weir savepoint delete} tombstones a
 * savepoint's data, the broker's log cleaner removes it, and the other savepoint still restores
 * into an application that counts exactly. On a savepoints topic as an earlier Weir created it
 * ({@code cleanup.policy=delete}), savepoints stay readable and {@code delete} says it reclaims nothing.
 */
class SavepointCommandsIT {

    @RegisterExtension
    static final KafkaExtension KAFKA = KafkaExtension.sharedPerRun();

    private static final Duration CATCH_UP = Duration.ofMinutes(1);
    private static final Duration COMPACTION = Duration.ofMinutes(2);
    private static final Duration POLL = Duration.ofMillis(100);

    private static Outcome weir(String... args) {
        return WeirTest.runShown(args);
    }

    @AfterEach
    void clearProperties() {
        System.clearProperty(SavepointTopologies.INPUT);
        System.clearProperty(SavepointTopologies.OUTPUT);
    }

    @Test
    void restoreChecksTheNewTopologyMapsStoresAndTopicsAndDeleteReclaimsTheSpace() throws Exception {
        String input = KAFKA.uniqueTopic("sp-lines", 3);
        String output = KAFKA.uniqueTopic("sp-counts", 3);
        System.setProperty(SavepointTopologies.INPUT, input);
        System.setProperty(SavepointTopologies.OUTPUT, output);
        String app = "sp-v1-" + input;
        String bootstrap = KAFKA.bootstrapServers();
        List<String> first = WordCounts.lines(0, 600, 40);
        WordCounts.produce(KAFKA, input, first);

        // 1. Two savepoints of the running application; the second through weir stop, which stops it.
        try (WeirApp v1 = WordCounts.start(KAFKA, new SavepointTopologies.Counts(), app)) {
            KAFKA.client().readUntil(output, r -> Records.lastLongPerKey(r).equals(WordCounts.counts(first)), CATCH_UP);
            Outcome created = weir("savepoint", "create", "--app", app, "--id", "early", "-b", bootstrap);
            assertThat(created.code()).as(created.err()).isEqualTo(Weir.OK);
            Outcome again = weir("savepoint", "create", "--app", app, "--id", "early", "-b", bootstrap);
            assertThat(again.code()).as("an id in use is refused").isEqualTo(Weir.FAILED);
            assertThat(again.err()).contains("savepoint early of " + app + " exists; delete it first");

            Outcome stopped = weir("stop", "--savepoint", "--app", app, "--id", "final", "-b", bootstrap);
            assertThat(stopped.code()).as(stopped.err()).isEqualTo(Weir.OK);
            assertThat(stopped.out())
                    .contains(
                            "(the application stops after it)",
                            "savepoint final complete",
                            "the instances of " + app + " stop now");
            assertThat(Poll.until(() -> v1.state() == WeirApp.State.STOPPED, CATCH_UP, POLL))
                    .as("the application stopped after weir stop --savepoint; it is %s", v1.state())
                    .isTrue();
        }
        Outcome listed = weir("savepoint", "list", "--app", app, "-b", bootstrap);
        assertThat(listed.out()).containsPattern("(?m)^early .* no$").containsPattern("(?m)^final .* yes$");

        // 2. The compatibility check refuses what the new code could not read, or would drop.
        Outcome format = restore("sp-format-" + input, app, "final", SavepointTopologies.StringValues.class);
        assertThat(format.code()).isEqualTo(Weir.FAILED);
        assertThat(format.err())
                .contains("does not fit the topology", "store word-counts: value format long -> string");
        Outcome kind = restore("sp-kind-" + input, app, "final", SavepointTopologies.Windowed.class);
        assertThat(kind.code()).isEqualTo(Weir.FAILED);
        assertThat(kind.err()).contains("store word-counts: kind key_value -> window");
        Outcome dropped = restore("sp-drop-" + input, app, "final", SavepointTopologies.Renamed.class);
        assertThat(dropped.code()).isEqualTo(Weir.FAILED);
        assertThat(dropped.err())
                .contains("store word-counts is in the savepoint but not in the topology"
                        + " (--allow-dropped-state drops it)");
        Outcome typo = restore(
                "sp-typo-" + input,
                app,
                "final",
                SavepointTopologies.Renamed.class,
                "--map-store",
                "word-count=word-totals");
        assertThat(typo.code()).isEqualTo(Weir.FAILED);
        assertThat(typo.err()).contains("--map-store word-count=word-totals: the savepoint has no store word-count");
        for (String refused : List.of("sp-format-", "sp-kind-", "sp-drop-", "sp-typo-")) {
            assertThat(committed(refused + input))
                    .as("a refused restore changes nothing")
                    .isEmpty();
        }

        // 3. --allow-dropped-state: the renamed store starts empty.
        Outcome allowed =
                restore("sp-allow-" + input, app, "final", SavepointTopologies.Renamed.class, "--allow-dropped-state");
        assertThat(allowed.code()).as(allowed.err()).isEqualTo(Weir.OK);
        assertThat(allowed.out())
                .contains(
                        "dropping store word-counts (--allow-dropped-state)",
                        "store word-totals is not in the savepoint: it starts empty",
                        "restored savepoint final");

        // 4. --map-topic: the offsets of the input are committed on the topic that replaces it.
        String moved = KAFKA.uniqueTopic("sp-lines-moved", 3);
        System.setProperty(SavepointTopologies.INPUT, moved); // the new version reads the new topic
        Outcome mapped = restore(
                "sp-moved-" + input,
                app,
                "final",
                SavepointTopologies.Counts.class,
                "--map-topic",
                input + "=" + moved);
        System.setProperty(SavepointTopologies.INPUT, input);
        assertThat(mapped.code()).as(mapped.err()).isEqualTo(Weir.OK);
        Map<TopicPartition, OffsetAndMetadata> movedOffsets = committed("sp-moved-" + input);
        Map<TopicPartition, OffsetAndMetadata> original = committed(app);
        assertThat(movedOffsets.keySet())
                .allMatch(tp -> tp.topic().equals(moved))
                .hasSize(3);
        for (int p = 0; p < 3; p++) {
            assertThat(movedOffsets.get(new TopicPartition(moved, p)).offset())
                    .isEqualTo(original.get(new TopicPartition(input, p)).offset());
        }

        // 5. delete tombstones the data of "early"; the log cleaner removes it; "final" stays whole.
        Outcome deleted = weir("savepoint", "delete", "--app", app, "--id", "early", "-b", bootstrap);
        assertThat(deleted.code()).as(deleted.err()).isEqualTo(Weir.OK);
        assertThat(deleted.out())
                .contains("deleted savepoint early of " + app, "tombstoned its", "which reclaims the space");
        assertThat(weir("savepoint", "list", "--app", app, "-b", bootstrap).out())
                .doesNotContain("early")
                .contains("final");
        awaitCompacted(InternalTopic.SAVEPOINTS.of(app), "early/");

        // 6. --map-store: the counts of "final" load into the renamed store, and the count goes on exactly.
        String target = "sp-renamed-" + input;
        Outcome renamed = restore(
                target, app, "final", SavepointTopologies.Renamed.class, "--map-store", "word-counts=word-totals");
        assertThat(renamed.code()).as(renamed.err()).isEqualTo(Weir.OK);
        assertThat(renamed.out()).contains("word-totals=");
        List<String> more = WordCounts.lines(600, 660, 40);
        WordCounts.produce(KAFKA, input, more);
        List<String> all = new ArrayList<>(first);
        all.addAll(more);
        Map<String, Long> expected = WordCounts.counts(all);
        String renamedOutput = output + "-renamed";
        KAFKA.createTopic(renamedOutput, 3, Map.of());
        System.setProperty(SavepointTopologies.OUTPUT, renamedOutput);
        try (WeirApp v2 = WordCounts.start(KAFKA, new SavepointTopologies.Renamed(), target)) {
            // Every word is in the new lines, so every count is written again, from the restored ones.
            KAFKA.client()
                    .readUntil(renamedOutput, r -> Records.lastLongPerKey(r).equals(expected), CATCH_UP);
        }
    }

    @Test
    void aSavepointsTopicOfAnEarlierWeirKeepsItsSavepointsReadableAndDeleteSaysItReclaimsNothing() throws Exception {
        String input = KAFKA.uniqueTopic("sp-old-lines", 3);
        String output = KAFKA.uniqueTopic("sp-old-counts", 3);
        System.setProperty(SavepointTopologies.INPUT, input);
        System.setProperty(SavepointTopologies.OUTPUT, output);
        String app = "sp-old-" + input;
        String bootstrap = KAFKA.bootstrapServers();
        // The topic as Weir created it before deletions reclaimed space: never compacted.
        KAFKA.createTopic(
                InternalTopic.SAVEPOINTS.of(app),
                2,
                Map.of(
                        "cleanup.policy",
                        "delete",
                        "retention.ms",
                        "-1",
                        "retention.bytes",
                        "-1",
                        "max.message.bytes",
                        Integer.toString(InternalTopic.SAVEPOINT_RECORD_BYTES)));
        List<String> lines = WordCounts.lines(0, 300, 40);
        WordCounts.produce(KAFKA, input, lines);
        try (WeirApp v1 = WordCounts.start(KAFKA, new SavepointTopologies.Counts(), app)) {
            KAFKA.client().readUntil(output, r -> Records.lastLongPerKey(r).equals(WordCounts.counts(lines)), CATCH_UP);
            for (String id : List.of("old-a", "old-b")) {
                Outcome created = weir("savepoint", "create", "--app", app, "--id", id, "-b", bootstrap);
                assertThat(created.code()).as(created.err()).isEqualTo(Weir.OK);
            }
        }
        Outcome deleted = weir("savepoint", "delete", "--app", app, "--id", "old-a", "-b", bootstrap);
        assertThat(deleted.code()).as(deleted.err()).isEqualTo(Weir.OK);
        assertThat(deleted.out())
                .contains(
                        "deleted savepoint old-a of " + app,
                        "space NOT reclaimed: " + InternalTopic.SAVEPOINTS.of(app) + " has cleanup.policy=delete",
                        "stay until the topic is deleted");
        Outcome restored = restore("sp-old-restored-" + input, app, "old-b", SavepointTopologies.Counts.class);
        assertThat(restored.code()).as(restored.err()).isEqualTo(Weir.OK);
        assertThat(restored.out())
                .contains("restored savepoint old-b of " + app + " into sp-old-restored-" + input + ": "
                        + WordCounts.counts(lines).size() + " entries");
    }

    private static Outcome restore(String target, String from, String id, Class<?> topology, String... extra) {
        List<String> args = new ArrayList<>(List.of(
                "savepoint",
                "restore",
                "--app",
                target,
                "--from-app",
                from,
                "--id",
                id,
                "--topology",
                topology.getName(),
                "-b",
                KAFKA.bootstrapServers()));
        args.addAll(List.of(extra));
        return weir(args.toArray(String[]::new));
    }

    private static Map<TopicPartition, OffsetAndMetadata> committed(String group) throws Exception {
        Map<TopicPartition, OffsetAndMetadata> offsets = new HashMap<>(KAFKA.admin()
                .listConsumerGroupOffsets(group)
                .partitionsToOffsetAndMetadata()
                .get());
        offsets.values().removeIf(java.util.Objects::isNull);
        return offsets;
    }

    /**
     * Waits until no record with a value is left under {@code prefix} in the savepoints topic's data
     * partition: the log cleaner removed what the deletion tombstoned. The topic's segments roll every
     * hour; here they roll within a second, and a probe record (a tombstone of a key no savepoint has)
     * is appended meanwhile so the segment holding the tombstones closes.
     */
    private static void awaitCompacted(String topic, String prefix) throws Exception {
        ConfigResource resource = new ConfigResource(ConfigResource.Type.TOPIC, topic);
        KAFKA.admin()
                .incrementalAlterConfigs(Map.of(
                        resource,
                        List.of(
                                new AlterConfigOp(new ConfigEntry("segment.ms", "500"), AlterConfigOp.OpType.SET),
                                new AlterConfigOp(
                                        new ConfigEntry("min.cleanable.dirty.ratio", "0.01"),
                                        AlterConfigOp.OpType.SET))))
                .all()
                .get();
        TopicPartition data = new TopicPartition(topic, 1);
        assertThat(valuesUnder(data, prefix))
                .as("before compaction, the tombstoned data is still there")
                .isPositive();
        Map<String, Object> p = Map.of(
                ProducerConfig.BOOTSTRAP_SERVERS_CONFIG,
                KAFKA.bootstrapServers(),
                ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG,
                ByteArraySerializer.class,
                ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG,
                ByteArraySerializer.class);
        long started = System.nanoTime();
        try (KafkaProducer<byte[], byte[]> producer = new KafkaProducer<>(p)) {
            boolean compacted = Poll.until(
                    () -> {
                        producer.send(
                                new ProducerRecord<>(topic, 1, "probe/roll".getBytes(StandardCharsets.UTF_8), null));
                        producer.flush();
                        return valuesUnder(data, prefix) == 0;
                    },
                    COMPACTION,
                    Duration.ofSeconds(1));
            assertThat(compacted)
                    .as("the log cleaner removed the deleted savepoint's data within %s", COMPACTION)
                    .isTrue();
        }
        System.out.printf(
                "FIGURE deleted savepoint's data compacted away %.1f s after the deletion%n",
                (System.nanoTime() - started) / 1e9);
    }

    /** How many records under {@code prefix} still have a value. */
    private static long valuesUnder(TopicPartition tp, String prefix) {
        Map<String, Object> c = Map.of(
                ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG,
                KAFKA.bootstrapServers(),
                ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG,
                ByteArrayDeserializer.class,
                ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG,
                ByteArrayDeserializer.class,
                ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG,
                false);
        try (KafkaConsumer<byte[], byte[]> consumer = new KafkaConsumer<>(c)) {
            consumer.assign(List.of(tp));
            consumer.seekToBeginning(List.of(tp));
            long end = consumer.endOffsets(List.of(tp)).get(tp);
            long found = 0;
            while (consumer.position(tp) < end) {
                for (ConsumerRecord<byte[], byte[]> r : consumer.poll(Duration.ofMillis(200))) {
                    if (r.key() != null
                            && r.value() != null
                            && new String(r.key(), StandardCharsets.UTF_8).startsWith(prefix)) {
                        found++;
                    }
                }
            }
            return found;
        }
    }
}
