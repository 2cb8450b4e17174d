package io.weir.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.weir.testing.Outputs;
import io.weir.testing.WindowingApp;
import io.weir.testkit.ChildJvm;
import io.weir.testkit.KafkaExtension;
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
    private static final long BASE = java.time.Instant.now().minus(Duration.ofHours(2))
            .truncatedTo(java.time.temporal.ChronoUnit.HOURS).toEpochMilli();
    private static final long OUT_OF_ORDERNESS = 100;

    @Test
    void noRecordIsLateAfterTheRepartitionThatWasNotLateAtItsSource() throws Exception {
        String input = KAFKA.uniqueTopic("skewed-in", PARTITIONS);
        String output = KAFKA.uniqueTopic("skewed-out", PARTITIONS);
        String appId = "skewed-" + input;
        Path stateDir = Files.createTempDirectory("weir-skewed-");
        long seed = System.nanoTime();
        Random random = new Random(seed);

        // Partition 0 moves 2 ms of event time per record, the others 0.25 ms; jitter stays within
        // half the out-of-orderness, so no record is late at its source task.
        Map<String, Long> model = new HashMap<>();
        List<ProducerRecord<byte[], byte[]>> records = new ArrayList<>();
        for (int i = 0; i < PER_PARTITION; i++) {
            for (int p = 0; p < PARTITIONS; p++) {
                long ts = BASE + (p == 0 ? i * 2L : i / 4) + random.nextInt((int) OUT_OF_ORDERNESS / 2);
                String group = "g" + random.nextInt(GROUPS);
                model.merge(group + "@" + (ts - Math.floorMod(ts, 1000L)), 1L, Long::sum);
                records.add(new ProducerRecord<>(input, p, ts, bytes("id-" + p + "-" + i), bytes(group)));
            }
        }
        long end = BASE + PER_PARTITION * 2L + 10_000;
        for (int p = 0; p < PARTITIONS; p++) {
            records.add(new ProducerRecord<>(input, p, end, bytes("flush" + p), bytes("end")));
        }
        KAFKA.client().send(records);

        for (int round = 0; round < 2; round++) {
            try (ChildJvm app = start(input, output, stateDir, appId)) {
                long target = Outputs.endOffsets(KAFKA.client(), output) + 100 + random.nextInt(model.size() / 4);
                await().atMost(Duration.ofMinutes(3)).pollInterval(Duration.ofMillis(20)).until(() -> {
                    if (!app.isAlive()) {
                        throw new AssertionError("the app died:\n" + app.outputTail(40));
                    }
                    return Outputs.endOffsets(KAFKA.client(), output) >= target;
                });
                app.kill();
            }
        }
        try (ChildJvm app = start(input, output, stateDir, appId)) {
            KAFKA.client().readUntil(output, new ByteArrayDeserializer(), new ByteArrayDeserializer(),
                    IsolationLevel.READ_COMMITTED, all -> all.size() >= model.size(), Duration.ofMinutes(5));
            app.terminate();
        }
        List<ConsumerRecord<byte[], byte[]>> out = KAFKA.client().readAllCommitted(output, new ByteArrayDeserializer(),
                new ByteArrayDeserializer(), Duration.ofMinutes(2));
        Map<String, Long> emitted = new HashMap<>();
        List<String> duplicates = new ArrayList<>();
        for (ConsumerRecord<byte[], byte[]> r : out) {
            String window = new String(r.key(), StandardCharsets.UTF_8);
            if (emitted.put(window, ByteBuffer.wrap(r.value()).getLong()) != null) {
                duplicates.add(window);
            }
        }
        List<ConsumerRecord<byte[], byte[]>> late = KAFKA.client().readAllCommitted(appId + "-late",
                new ByteArrayDeserializer(), new ByteArrayDeserializer(), Duration.ofMinutes(1));
        assertThat(late).as("records late after the repartition (seed %d)", seed).isEmpty();
        assertThat(duplicates).as("windows emitted more than once (seed %d)", seed).isEmpty();
        assertThat(emitted).as("final window counts (seed %d)", seed).isEqualTo(model);
    }

    private static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    private static ChildJvm start(String input, String output, Path stateDir, String appId) {
        ChildJvm app = ChildJvm.builder(WindowingApp.class)
                .args(KAFKA.bootstrapServers(), input, output, stateDir.toString(), appId,
                        Long.toString(OUT_OF_ORDERNESS), "by-value")
                .jvmOptions("-Xmx512m", "-XX:+UseParallelGC")
                .quietLogging()
                .start();
        app.awaitOutput("READY", Duration.ofSeconds(60));
        return app;
    }
}
