package io.weir.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.weir.WeirApp;
import io.weir.cli.WeirTest.Outcome;
import io.weir.common.KeyValue;
import io.weir.config.WeirConfig;
import io.weir.internal.config.InternalTopic;
import io.weir.testing.CountingApp;
import io.weir.testkit.KafkaExtension;
import io.weir.testkit.Records;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code weir cleanup} (the chart's post-delete hook) against a real broker and an in-memory
 * Kubernetes API: refused, with nothing deleted, while an instance runs; once it is gone, deletes
 * the group, the application's own topics and its StatefulSet's volume claims and replay record,
 * and keeps the input and output topics, the savepoints (without {@code --savepoints}), another
 * application's topics whose id extends this one's, and claims of other StatefulSets; a second run
 * finds nothing left and succeeds.
 */
class CleanupCommandIT {

    @RegisterExtension
    static final KafkaExtension KAFKA = KafkaExtension.sharedPerRun();

    private static final Duration CATCH_UP = Duration.ofMinutes(1);
    private static final Map<String, String> LABELS = Map.of("app.kubernetes.io/instance", "counter");

    @TempDir
    Path dir;

    private MockKubernetes kubernetes;
    private WeirApp instance;
    private String input;
    private String output;
    private String app;

    @BeforeEach
    void cluster() {
        kubernetes = new MockKubernetes();
        input = KAFKA.uniqueTopic("cleanup-in", 2);
        output = KAFKA.uniqueTopic("cleanup-out", 2);
        app = "cleanup-" + input;
    }

    @AfterEach
    void stop() throws Exception {
        if (instance != null) {
            instance.close();
        }
        kubernetes.close();
    }

    private Set<String> topics() {
        return KAFKA.client()
                .admin()
                .listTopics()
                .names()
                .toCompletionStage()
                .toCompletableFuture()
                .join();
    }

    private Outcome cleanup(String... more) {
        List<String> args = new ArrayList<>(List.of(
                "cleanup",
                "--app",
                app,
                "-b",
                KAFKA.bootstrapServers(),
                "--statefulset",
                "counter",
                "--delete-volumes",
                "--volume-label",
                "app.kubernetes.io/instance=counter",
                "--record",
                "counter-reset"));
        args.addAll(List.of(kubernetes.options()));
        args.addAll(List.of(more));
        return WeirTest.runShown(args.toArray(String[]::new));
    }

    @Test
    void deletesWhatTheApplicationLeftOnlyOnceItIsGoneAndAgainFindsNothing() throws Exception {
        WeirConfig config = WeirConfig.builder()
                .applicationId(app)
                .bootstrapServers(KAFKA.bootstrapServers())
                .stateDir(Files.createTempDirectory(dir, "state-"))
                .instanceId("pod-0")
                .set("http.port", -1)
                .environment(Map.of())
                .build();
        instance = WeirApp.create(CountingApp.topology(input, output), config).start();
        List<KeyValue<String, String>> batch = new ArrayList<>();
        Map<String, Long> expected = new TreeMap<>();
        for (int i = 0; i < 100; i++) {
            batch.add(KeyValue.of("k" + (i % 10), "v" + i));
            expected.merge("k" + (i % 10), 1L, Long::sum);
        }
        KAFKA.client().produceStrings(input, batch);
        KAFKA.client().readUntil(output, r -> Records.lastLongPerKey(r).equals(expected), CATCH_UP);
        String changelog = InternalTopic.CHANGELOG.of(app, "counts");
        String savepoints = InternalTopic.SAVEPOINTS.of(app);
        // Another application whose id extends this one's, with a group and a changelog of its own.
        String longer = app + "-x";
        String longerChangelog = InternalTopic.CHANGELOG.of(longer, "counts");
        KAFKA.createTopic(longerChangelog, 1, Map.of());
        KAFKA.admin()
                .alterConsumerGroupOffsets(longer, Map.of(new TopicPartition(input, 0), new OffsetAndMetadata(0)))
                .all()
                .get();
        kubernetes.createVolumeClaim("state-counter-0", LABELS);
        kubernetes.createVolumeClaim("state-counter-1", LABELS);
        kubernetes.createVolumeClaim("state-counter-other-0", LABELS);
        kubernetes.createVolumeClaim("state-counter-2", Map.of("app.kubernetes.io/instance", "another"));
        kubernetes.api().writeConfigMap("counter-reset", LABELS, Map.of(ReplayCommand.KEY_ID, "r1"));
        assertThat(topics()).contains(changelog, InternalTopic.TOPOLOGY.of(app), savepoints);

        Outcome refused = cleanup();

        assertThat(refused.code()).isEqualTo(Weir.FAILED);
        assertThat(refused.err())
                .contains("refused: its group has 1 active member(s)")
                .contains("nothing was deleted");
        assertThat(topics()).contains(changelog);
        assertThat(kubernetes.api().persistentVolumeClaims(LABELS)).contains("state-counter-0");

        instance.close();
        instance = null;
        Outcome cleaned = cleanup("--wait", "60");

        assertThat(cleaned.code()).as(cleaned.err()).isEqualTo(Weir.OK);
        assertThat(Groups.describe(KAFKA.admin(), app)).isEmpty();
        assertThat(topics())
                .doesNotContain(changelog, InternalTopic.TOPOLOGY.of(app), InternalTopic.LIVENESS.of(app))
                .contains(input, output, savepoints, longerChangelog);
        assertThat(kubernetes.api().persistentVolumeClaims(Map.of()))
                .containsExactlyInAnyOrder("state-counter-other-0", "state-counter-2");
        assertThat(kubernetes.api().configMapData("counter-reset")).isEmpty();
        assertThat(cleaned.out()).contains("Consumer group " + app + ": delete").contains("state-counter-0");

        Outcome again = cleanup("--savepoints");

        assertThat(again.code()).as(again.err()).isEqualTo(Weir.OK);
        assertThat(again.out()).contains("already gone").contains("No volume claims left.");
        assertThat(topics()).doesNotContain(savepoints).contains(longerChangelog);
    }

    @Test
    void aStatefulSetStillThereIsRefused() throws Exception {
        kubernetes.createStatefulSet("counter", 0);

        Outcome refused = cleanup();

        assertThat(refused.code()).isEqualTo(Weir.FAILED);
        assertThat(refused.err()).contains("statefulset counter still exists").contains("nothing was deleted");
    }
}
