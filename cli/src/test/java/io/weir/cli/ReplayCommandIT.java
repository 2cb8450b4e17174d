package io.weir.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.weir.WeirApp;
import io.weir.cli.WeirTest.Outcome;
import io.weir.common.KeyValue;
import io.weir.common.internal.Poll;
import io.weir.config.WeirConfig;
import io.weir.internal.kubernetes.KubernetesApi;
import io.weir.testing.CountingApp;
import io.weir.testkit.KafkaExtension;
import io.weir.testkit.Records;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code weir replay} (the chart's reset hook) against a real broker and an in-memory Kubernetes
 * API, the test playing the StatefulSet controller: the first run for an id scales the StatefulSet
 * to 0, resets the application to earliest and records the id, and the application started again
 * recounts every key exactly; a second run with the same id (a retried hook, the next unrelated
 * upgrade) finds the record and touches nothing, not even the running instances; on a first
 * install (no StatefulSet, no group) there is nothing to move and the id is recorded all the same.
 */
class ReplayCommandIT {

    @RegisterExtension
    static final KafkaExtension KAFKA = KafkaExtension.sharedPerRun();

    private static final Duration CATCH_UP = Duration.ofMinutes(1);
    private static final String STATEFULSET = "counter";
    private static final String RECORD = "counter-reset";

    @TempDir
    Path dir;

    private MockKubernetes kubernetes;
    private String input;
    private String output;
    private String app;
    private final List<WeirApp> running = new CopyOnWriteArrayList<>();
    private final Map<String, Long> produced = new TreeMap<>();

    @BeforeEach
    void cluster() {
        kubernetes = new MockKubernetes();
        input = KAFKA.uniqueTopic("replay-in", 3);
        output = KAFKA.uniqueTopic("replay-out", 3);
        app = "replay-" + input;
    }

    @AfterEach
    void stop() throws Exception {
        running.forEach(WeirApp::close);
        kubernetes.close();
    }

    private void startInstances() throws Exception {
        for (int i = 0; i < 2; i++) {
            WeirConfig config = WeirConfig.builder()
                    .applicationId(app)
                    .bootstrapServers(KAFKA.bootstrapServers())
                    .stateDir(Files.createTempDirectory(dir, "state-"))
                    .instanceId("pod-" + i)
                    .set("http.port", -1)
                    .environment(Map.of())
                    .build();
            running.add(
                    WeirApp.create(CountingApp.topology(input, output), config).start());
        }
    }

    private void produce(int records) {
        List<KeyValue<String, String>> batch = new ArrayList<>();
        for (int i = 0; i < records; i++) {
            String key = "k" + (i % 20);
            batch.add(KeyValue.of(key, "v" + i));
            produced.merge(key, 1L, Long::sum);
        }
        KAFKA.client().produceStrings(input, batch);
    }

    private void awaitExactCounts() {
        Map<String, Long> expected = new TreeMap<>(produced);
        KAFKA.client().readUntil(output, r -> Records.lastLongPerKey(r).equals(expected), CATCH_UP);
    }

    private Outcome replay(String id, String... more) {
        List<String> args = new ArrayList<>(List.of(
                "replay",
                "--app",
                app,
                "--replay-id",
                id,
                "--record",
                RECORD,
                "--record-label",
                "app.kubernetes.io/instance=counter",
                "--statefulset",
                STATEFULSET,
                "--revision",
                "7",
                "--stop-timeout",
                "60",
                "-b",
                KAFKA.bootstrapServers()));
        args.addAll(List.of(kubernetes.options()));
        args.addAll(List.of(more));
        return WeirTest.runShown(args.toArray(String[]::new));
    }

    /** Once the replicas are 0, the instances are closed (the pods deleted). */
    private CompletableFuture<Void> controller() {
        KubernetesApi api = kubernetes.api();
        return CompletableFuture.runAsync(() -> {
            try {
                assertThat(Poll.until(
                                () -> api.statefulSetReplicas(STATEFULSET) == 0,
                                Duration.ofMinutes(2),
                                Duration.ofMillis(100)))
                        .as("scaled to 0")
                        .isTrue();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException(e);
            }
            running.forEach(WeirApp::close);
            running.clear();
        });
    }

    private Map<TopicPartition, OffsetAndMetadata> committed() {
        return Groups.committed(KAFKA.admin(), app);
    }

    @Test
    void replaysOncePerIdAndTheRestartedApplicationRecountsExactly() throws Exception {
        kubernetes.createStatefulSet(STATEFULSET, 2);
        startInstances();
        produce(400);
        awaitExactCounts();
        CompletableFuture<Void> controller = controller();

        Outcome first = replay("replay-1", "--to", "earliest");

        assertThat(first.code()).as(first.err()).isEqualTo(Weir.OK);
        controller.join();
        assertThat(first.out())
                .contains("scaling statefulset counter from 2 to 0 replicas")
                .contains("recorded replay replay-1 of " + app + " in configmap " + RECORD);
        assertThat(committed().values()).extracting(OffsetAndMetadata::offset).containsOnly(0L);
        assertThat(kubernetes.api().configMapData(RECORD))
                .hasValueSatisfying(d -> assertThat(d)
                        .containsEntry(ReplayCommand.KEY_ID, "replay-1")
                        .containsEntry(ReplayCommand.KEY_APP, app)
                        .containsEntry(ReplayCommand.KEY_REVISION, "7")
                        .containsEntry(ReplayCommand.KEY_TARGET, "to earliest (earliest)"));

        // Helm applies the StatefulSet: the replicas come back and recount from the start, changelog wiped.
        kubernetes.api().scaleStatefulSet(STATEFULSET, 2);
        startInstances();
        produce(100);
        awaitExactCounts();

        Outcome again = replay("replay-1", "--to", "earliest");

        assertThat(again.code()).as(again.err()).isEqualTo(Weir.OK);
        assertThat(again.out())
                .contains("replay replay-1 of " + app + " was done at")
                .contains("nothing to do");
        assertThat(kubernetes.api().statefulSetReplicas(STATEFULSET)).isEqualTo(2);
        assertThat(ActiveMembers.of(KAFKA.admin(), app)).hasSize(2);
        produce(50);
        awaitExactCounts();
    }

    @Test
    void aFirstInstallHasNothingToMoveAndRecordsTheId() {
        Outcome first = replay("from-latest", "--to", "latest");

        assertThat(first.code()).as(first.err()).isEqualTo(Weir.OK);
        assertThat(first.out())
                .contains("no statefulset counter yet (a first install)")
                .contains("has no committed offsets and no --topics were given: nothing to reset");
        assertThat(kubernetes.api().configMapData(RECORD))
                .hasValueSatisfying(d -> assertThat(d).containsEntry(ReplayCommand.KEY_ID, "from-latest"));

        Outcome again = replay("from-latest", "--to", "latest");
        assertThat(again.out()).contains("nothing to do");

        // A new id with topics named: the offsets are committed at the end.
        produce(30);
        Outcome named = replay("named", "--to", "latest", "--topics", input);
        assertThat(named.code()).as(named.err()).isEqualTo(Weir.OK);
        assertThat(committed().values().stream()
                        .mapToLong(OffsetAndMetadata::offset)
                        .sum())
                .isEqualTo(30L);
        assertThat(kubernetes.api().configMapData(RECORD))
                .hasValueSatisfying(d -> assertThat(d).containsEntry(ReplayCommand.KEY_ID, "named"));
    }
}
