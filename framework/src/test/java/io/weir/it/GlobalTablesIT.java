package io.weir.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.weir.WeirApp;
import io.weir.common.KeyValue;
import io.weir.errors.ClusterException;
import io.weir.testing.CrashApps;
import io.weir.testing.GlobalJoinApp;
import io.weir.testing.TestApps;
import io.weir.testing.WindowCrashes;
import io.weir.testkit.ChildJvm;
import io.weir.testkit.KafkaExtension;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Global tables on a real broker ({@link GlobalJoinApp}): a reference topic of 3 partitions joined
 * by events of 4 partitions, which no co-partitioning could pair.
 */
class GlobalTablesIT {

    @RegisterExtension
    static final KafkaExtension KAFKA = KafkaExtension.sharedPerRun();

    private static final int ROWS = 20_000;

    /**
     * Every row and every event is in Kafka before the application starts: had one event been
     * processed before the table was loaded, an inner join would have dropped it. Then a row
     * updated while running is seen by the events after it, and a malformed row goes to the
     * dead-letter topic.
     */
    @Test
    void theTableIsRestoredInFullBeforeTheFirstEventAndFollowedWhileRunning() throws Exception {
        String reference = KAFKA.uniqueTopic("global-ref", 3);
        String events = KAFKA.uniqueTopic("global-events", 4);
        String output = KAFKA.uniqueTopic("global-out", 4);
        String appId = "global-" + reference;
        List<KeyValue<String, String>> rows = new ArrayList<>();
        for (int i = 0; i < ROWS; i++) {
            rows.add(KeyValue.of("r" + i, "v" + i));
        }
        KAFKA.client().produceStrings(reference, rows);
        List<KeyValue<String, String>> eventRecords = new ArrayList<>();
        Random random = new Random(7);
        for (int i = 0; i < ROWS; i++) {
            eventRecords.add(KeyValue.of("e" + i, "r" + random.nextInt(ROWS)));
        }
        KAFKA.client().produceStrings(events, eventRecords);

        try (WeirApp app = TestApps.start(
                GlobalJoinApp.topology(events, reference, output),
                TestApps.config(KAFKA.bootstrapServers(), appId).build())) {
            List<ConsumerRecord<String, String>> joined =
                    KAFKA.client().readStringsAtLeast(output, ROWS, Duration.ofMinutes(2));
            Map<String, String> expected = new HashMap<>();
            eventRecords.forEach(
                    e -> expected.put(e.key(), e.value() + "=v" + e.value().substring(1)));
            Map<String, String> actual = new HashMap<>();
            joined.forEach(r -> actual.put(r.key(), r.value()));
            assertThat(joined).hasSize(ROWS);
            assertThat(actual).isEqualTo(expected);

            KAFKA.client().produceStrings(reference, List.of(KeyValue.of("r1", "updated"), KeyValue.of(null, "bad")));
            await().atMost(Duration.ofMinutes(1))
                    .until(() -> "updated"
                            .equals(app.<String, String>store("reference").get("r1")));
            KAFKA.client().produceStrings(events, List.of(KeyValue.of("late", "r1")));
            assertThat(KAFKA.client().readStringsAtLeast(output, ROWS + 1, Duration.ofMinutes(1)))
                    .anyMatch(r -> r.key().equals("late") && r.value().equals("r1=updated"));
            assertThat(KAFKA.client().readAtLeast(appId + "-dlq", 1, Duration.ofMinutes(1)))
                    .hasSize(1);
        }
    }

    /** SIGKILLed twice while joining: every event joined exactly once, read committed. */
    @Test
    void everyEventIsJoinedExactlyOnceAcrossSigkills() throws Exception {
        String reference = KAFKA.uniqueTopic("global-kill-ref", 2);
        String events = KAFKA.uniqueTopic("global-kill-events", 4);
        String output = KAFKA.uniqueTopic("global-kill-out", 4);
        String appId = "global-kill-" + reference;
        Path stateDir = Files.createTempDirectory("weir-global-kill-");
        long seed = System.nanoTime();
        Random random = new Random(seed);
        List<KeyValue<String, String>> rows = new ArrayList<>();
        for (int i = 0; i < 1_000; i++) {
            rows.add(KeyValue.of("r" + i, "v" + i));
        }
        KAFKA.client().produceStrings(reference, rows);
        int count = 100_000;
        Map<String, String> expected = new HashMap<>();
        List<KeyValue<String, String>> eventRecords = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            int row = random.nextInt(1_000);
            eventRecords.add(KeyValue.of("e" + i, "r" + row));
            expected.put("e" + i, "r" + row + "=v" + row);
        }
        KAFKA.client().produceStrings(events, eventRecords);

        WindowCrashes.killWhileWindowsAreOpen(
                () -> start(events, reference, output, stateDir, appId), KAFKA.client(), output, 2, random, count);
        List<ConsumerRecord<byte[], byte[]>> out = WindowCrashes.runToTheEnd(
                () -> start(events, reference, output, stateDir, appId), KAFKA.client(), output, count);

        Map<String, String> joined = new HashMap<>();
        List<String> twice = new ArrayList<>();
        for (ConsumerRecord<byte[], byte[]> r : out) {
            String key = new String(r.key(), java.nio.charset.StandardCharsets.UTF_8);
            if (joined.put(key, new String(r.value(), java.nio.charset.StandardCharsets.UTF_8)) != null) {
                twice.add(key);
            }
        }
        assertThat(twice).as("events joined twice (seed %d)", seed).isEmpty();
        assertThat(joined).as("joined events (seed %d)", seed).isEqualTo(expected);
    }

    /**
     * A restart resumes the table kept on disk: it reads only what was written while the instance
     * was down (an update and a delete), not the whole topic; after the topic is deleted and
     * recreated with other rows (and another partition count), it reads the new topic in full and
     * none of the old rows remains.
     */
    @Test
    void aRestartReadsOnlyTheTailAndARecreatedTopicInFull() throws Exception {
        String reference = KAFKA.uniqueTopic("global-resume-ref", 3);
        String events = KAFKA.uniqueTopic("global-resume-events", 1);
        String output = KAFKA.uniqueTopic("global-resume-out", 1);
        String appId = "global-resume-" + reference;
        Path stateDir = Files.createTempDirectory("weir-global-resume-");
        List<KeyValue<String, String>> rows = new ArrayList<>();
        for (int i = 0; i < ROWS; i++) {
            rows.add(KeyValue.of("r" + i, "v" + i));
        }
        KAFKA.client().produceStrings(reference, rows);
        try (WeirApp app = startIn(stateDir, events, reference, output, appId)) {
            assertThat(restoredRecords(app, reference)).isEqualTo(ROWS);
        }

        KAFKA.client().produceStrings(reference, List.of(KeyValue.of("r1", "updated"), KeyValue.of("r2", null)));
        try (WeirApp app = startIn(stateDir, events, reference, output, appId)) {
            assertThat(restoredRecords(app, reference)).isEqualTo(2);
            assertThat(app.<String, String>store("reference").get("r1")).isEqualTo("updated");
            assertThat(app.<String, String>store("reference").get("r2")).isNull();
            assertThat(app.<String, String>store("reference").get("r3")).isEqualTo("v3");
        }

        KAFKA.client().deleteTopic(reference);
        await().atMost(Duration.ofMinutes(1)).ignoreExceptions().untilAsserted(() -> {
            KAFKA.client().createTopic(reference, 2);
            assertThat(KAFKA.client().describePartitions(reference)).hasSize(2);
        });
        KAFKA.client().produceStrings(reference, List.of(KeyValue.of("n1", "new")));
        try (WeirApp app = startIn(stateDir, events, reference, output, appId)) {
            assertThat(restoredRecords(app, reference)).isEqualTo(1);
            assertThat(app.<String, String>store("reference").get("n1")).isEqualTo("new");
            assertThat(app.<String, String>store("reference").get("r3")).isNull();
        }
    }

    private static WeirApp startIn(Path stateDir, String events, String reference, String output, String appId) {
        return TestApps.start(
                GlobalJoinApp.topology(events, reference, output),
                TestApps.config(KAFKA.bootstrapServers(), appId)
                        .stateDir(stateDir)
                        .build());
    }

    private static long restoredRecords(WeirApp app, String topic) {
        return Math.round(app.meterRegistry()
                .get("weir.global.restored.records")
                .tag("topic", topic)
                .gauge()
                .value());
    }

    @Test
    void aMissingReferenceTopicFailsTheStartNamingIt() {
        String events = KAFKA.uniqueTopic("global-missing-events", 1);
        assertThatThrownBy(() -> TestApps.start(
                        GlobalJoinApp.topology(events, "no-such-reference", "unused-out"),
                        TestApps.config(KAFKA.bootstrapServers(), "global-missing-" + events)
                                .build()))
                .isInstanceOf(ClusterException.class)
                .hasMessageContaining("no-such-reference");
    }

    private static ChildJvm start(String events, String reference, String output, Path stateDir, String appId) {
        return CrashApps.start(
                GlobalJoinApp.class, KAFKA.bootstrapServers(), events, reference, output, stateDir.toString(), appId);
    }
}
