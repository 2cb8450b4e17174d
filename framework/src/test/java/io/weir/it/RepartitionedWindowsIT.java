package io.weir.it;

import static io.weir.it.CrashRecords.bytes;
import static org.assertj.core.api.Assertions.assertThat;

import io.weir.Topology;
import io.weir.TopologyModels;
import io.weir.WeirApp;
import io.weir.config.WeirConfig;
import io.weir.internal.savepoint.Manifest;
import io.weir.internal.savepoint.SavepointCatalog;
import io.weir.internal.savepoint.SavepointRequest;
import io.weir.internal.savepoint.SavepointRestore;
import io.weir.testing.TestApps;
import io.weir.testing.WindowCrashes;
import io.weir.testing.WindowingApp;
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
import java.util.concurrent.CompletableFuture;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.IsolationLevel;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Event time across a repartition topic, with skewed upstream progress and SIGKILLs: a count per
 * value in 1 s windows (emitted on close), fed by four input partitions of which one runs eight
 * times further ahead in event time than the others. No record is late where it comes from
 * (each partition is in order within the allowed out-of-orderness), so none may be late after the
 * repartition either: the counting tasks take the slowest watermark of the tasks writing to them,
 * not the time of the records that happen to arrive first. The application is SIGKILLed twice
 * with windows open; read committed, every window's count appears exactly once and equals a model
 * of the input, and the late-records topic stays empty.
 */
class RepartitionedWindowsIT {

    @RegisterExtension
    static final KafkaExtension KAFKA = KafkaExtension.sharedPerRun();

    private static final int PARTITIONS = 4;
    private static final int GROUPS = 40;
    private static final int PER_PARTITION = 40_000;
    private static final long BASE = java.time.Instant.now()
            .minus(Duration.ofHours(2))
            .truncatedTo(java.time.temporal.ChronoUnit.HOURS)
            .toEpochMilli();
    private static final long OUT_OF_ORDERNESS = 100;

    @Test
    void noRecordIsLateAfterTheRepartitionThatWasNotLateAtItsSource() throws Exception {
        String input = KAFKA.uniqueTopic("skewed-in", PARTITIONS);
        String output = KAFKA.uniqueTopic("skewed-out", PARTITIONS);
        String appId = "skewed-" + input;
        Path stateDir = Files.createTempDirectory("weir-skewed-");
        long seed = System.nanoTime();
        Random random = new Random(seed);

        Skewed data = Skewed.generate(input, random, PER_PARTITION);
        Map<String, Long> model = data.model();
        KAFKA.client().send(data.records());
        KAFKA.client().send(data.flush());

        WindowCrashes.killWhileWindowsAreOpen(
                () -> start(input, output, stateDir, appId), KAFKA.client(), output, 2, random, model.size());
        List<ConsumerRecord<byte[], byte[]>> out = WindowCrashes.runToTheEnd(
                () -> start(input, output, stateDir, appId), KAFKA.client(), output, model.size());
        assertExactAndNoneLate(out, appId, model, seed);
    }

    /**
     * A savepoint of the application taken (and stopping it) while the skewed input flows, forked
     * into a new application: the fork resumes with the committed time of every repartition
     * partition and hears from every writing task again; what the first application emitted before
     * the cut and what the fork emits after it are every window exactly once, and neither reports a
     * record late.
     */
    @Test
    void aSavepointForkSeesNoLateRecordEither() throws Exception {
        String input = KAFKA.uniqueTopic("skewed-sp-in", PARTITIONS);
        String out1 = KAFKA.uniqueTopic("skewed-sp-v1", PARTITIONS);
        String out2 = KAFKA.uniqueTopic("skewed-sp-fork", PARTITIONS);
        String v1 = "skewed-sp-v1-" + input;
        String fork = "skewed-sp-fork-" + input;
        long seed = System.nanoTime();
        Skewed data = Skewed.generate(input, new Random(seed), PER_PARTITION / 2);
        int half = data.records().size() / 2;
        KAFKA.client().send(data.records().subList(0, half));
        WeirConfig v1Config = TestApps.config(KAFKA.bootstrapServers(), v1)
                .instanceId("one")
                .set("max.out.of.orderness.ms", OUT_OF_ORDERNESS)
                .build();

        Manifest manifest;
        try (WeirApp app = TestApps.start(WindowingApp.topology(input, out1, true), v1Config)) {
            KAFKA.client().readUntil(out1, r -> !r.isEmpty(), Duration.ofMinutes(1));
            CompletableFuture<Void> flowing = CompletableFuture.runAsync(() -> {
                List<ProducerRecord<byte[], byte[]>> rest =
                        data.records().subList(half, data.records().size());
                for (int i = 0; i < rest.size(); i += 2_000) {
                    KAFKA.client().send(rest.subList(i, Math.min(rest.size(), i + 2_000)));
                }
                KAFKA.client().send(data.flush());
            });
            manifest = new SavepointRequest(v1Config, System.out::println)
                    .take(SavepointRequest.newId(), true, Duration.ofSeconds(60), null);
            flowing.get();
            assertThat(app.awaitTermination(Duration.ofSeconds(30)))
                    .as("stopped at the savepoint")
                    .isTrue();
        }
        List<ConsumerRecord<byte[], byte[]>> before = KAFKA.client()
                .readAllCommitted(
                        out1, new ByteArrayDeserializer(), new ByteArrayDeserializer(), Duration.ofMinutes(1));

        Topology forkTopology = WindowingApp.topology(input, out2, true);
        WeirConfig forkConfig = TestApps.config(KAFKA.bootstrapServers(), fork)
                .set("max.out.of.orderness.ms", OUT_OF_ORDERNESS)
                .build();
        new SavepointRestore(forkConfig, TopologyModels.resolved(forkTopology, fork), System.out::println)
                .restore(new SavepointCatalog(v1Config), manifest, new SavepointRestore.Options(false, Map.of()));
        int remaining = data.model().size() - before.size();
        try (WeirApp app = TestApps.start(forkTopology, forkConfig)) {
            KAFKA.client()
                    .readUntil(
                            out2,
                            new ByteArrayDeserializer(),
                            new ByteArrayDeserializer(),
                            IsolationLevel.READ_COMMITTED,
                            all -> all.size() >= remaining,
                            Duration.ofMinutes(3));
        }
        List<ConsumerRecord<byte[], byte[]>> all = new ArrayList<>(before);
        all.addAll(KAFKA.client()
                .readAllCommitted(
                        out2, new ByteArrayDeserializer(), new ByteArrayDeserializer(), Duration.ofMinutes(1)));
        assertThat(KAFKA.client()
                        .readAllCommitted(
                                v1 + "-late",
                                new ByteArrayDeserializer(),
                                new ByteArrayDeserializer(),
                                Duration.ofMinutes(1)))
                .as("late before the cut (seed %d)", seed)
                .isEmpty();
        assertExactAndNoneLate(all, fork, data.model(), seed);
    }

    /**
     * Input whose partition 0 moves 2 ms of event time per record and the others 0.25 ms, with
     * jitter within half the out-of-orderness, so no record is late at its source task; the model
     * counts each (value, 1 s window). The flush records, far ahead on every partition, close
     * every window of the model.
     */
    private record Skewed(
            List<ProducerRecord<byte[], byte[]>> records,
            List<ProducerRecord<byte[], byte[]>> flush,
            Map<String, Long> model) {

        static Skewed generate(String input, Random random, int perPartition) {
            Map<String, Long> model = new HashMap<>();
            List<ProducerRecord<byte[], byte[]>> records = new ArrayList<>();
            for (int i = 0; i < perPartition; i++) {
                for (int p = 0; p < PARTITIONS; p++) {
                    long ts = BASE + (p == 0 ? i * 2L : i / 4) + random.nextInt((int) OUT_OF_ORDERNESS / 2);
                    String group = "g" + random.nextInt(GROUPS);
                    model.merge(group + "@" + (ts - Math.floorMod(ts, 1000L)), 1L, Long::sum);
                    records.add(new ProducerRecord<>(input, p, ts, bytes("id-" + p + "-" + i), bytes(group)));
                }
            }
            long end = BASE + perPartition * 2L + 10_000;
            List<ProducerRecord<byte[], byte[]>> flush = new ArrayList<>();
            for (int p = 0; p < PARTITIONS; p++) {
                flush.add(new ProducerRecord<>(input, p, end, bytes("flush" + p), bytes("end")));
            }
            return new Skewed(records, flush, model);
        }
    }

    private static void assertExactAndNoneLate(
            List<ConsumerRecord<byte[], byte[]>> out, String appId, Map<String, Long> model, long seed) {
        List<ConsumerRecord<byte[], byte[]>> late = KAFKA.client()
                .readAllCommitted(
                        appId + "-late",
                        new ByteArrayDeserializer(),
                        new ByteArrayDeserializer(),
                        Duration.ofMinutes(1));
        assertThat(late)
                .as("records late after the repartition (seed %d)", seed)
                .isEmpty();
        WindowCrashes.assertEveryWindowOnce(out, model, seed);
    }

    private static ChildJvm start(String input, String output, Path stateDir, String appId) {
        return WindowingApp.start(KAFKA.bootstrapServers(), input, output, stateDir, appId, OUT_OF_ORDERNESS, true);
    }
}
