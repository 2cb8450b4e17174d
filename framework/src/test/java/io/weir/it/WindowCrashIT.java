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
 * Exactly-once windows under SIGKILL: a windowed count (1 s tumbling windows, emitted on close,
 * some disorder within the allowed out-of-orderness) is killed three times while windows are
 * open and restarted each time. Read committed, every window's final count appears exactly once
 * and equals a model of the input: the committed watermark and window store resume together, so
 * no window fires twice and none is skipped.
 */
class WindowCrashIT {

    @RegisterExtension
    static final KafkaExtension KAFKA = KafkaExtension.sharedPerRun();

    private static final int PARTITIONS = 4;
    private static final int KEYS = 200;
    private static final int RECORDS = 300_000;
    // Recent times: records older than the broker's retention (a week) would be deleted mid-test.
    private static final long BASE = java.time.Instant.now().minus(java.time.Duration.ofHours(2))
            .truncatedTo(java.time.temporal.ChronoUnit.HOURS).toEpochMilli();
    private static final long OUT_OF_ORDERNESS = 100;

    @Test
    void everyWindowIsEmittedExactlyOnceAcrossCrashes() throws Exception {
        String input = KAFKA.uniqueTopic("window-crash-in", PARTITIONS);
        String output = KAFKA.uniqueTopic("window-crash-out", PARTITIONS);
        String appId = "window-crash-" + input;
        Path stateDir = Files.createTempDirectory("weir-window-crash-");
        long seed = System.nanoTime();
        Random random = new Random(seed);

        // Per partition, times advance 10 records per ms with jitter below the out-of-orderness;
        // the model counts each (key, 1 s window). A final record per partition far ahead closes
        // every window of the model.
        Map<String, Long> model = new HashMap<>();
        List<ProducerRecord<byte[], byte[]>> records = new ArrayList<>(RECORDS + PARTITIONS);
        for (int i = 0; i < RECORDS; i++) {
            int partition = i % PARTITIONS;
            String key = "k" + (partition + PARTITIONS * random.nextInt(KEYS / PARTITIONS));
            long ts = BASE + i / 10 + random.nextInt((int) OUT_OF_ORDERNESS / 2);
            model.merge(key + "@" + (ts - Math.floorMod(ts, 1000L)), 1L, Long::sum);
            records.add(new ProducerRecord<>(input, partition, ts, bytes(key), bytes("v" + i)));
        }
        long end = BASE + RECORDS / 10 + 10_000;
        for (int p = 0; p < PARTITIONS; p++) {
            records.add(new ProducerRecord<>(input, p, end, bytes("flush" + p), bytes("end")));
        }
        KAFKA.client().send(records);

        for (int round = 0; round < 3; round++) {
            try (ChildJvm app = start(input, output, stateDir, appId)) {
                long target = Outputs.endOffsets(KAFKA.client(), output) + 200 + random.nextInt(model.size() / 5);
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
        assertThat(duplicates).as("windows emitted more than once (seed %d)", seed).isEmpty();
        assertThat(emitted).as("final window counts (seed %d)", seed).isEqualTo(model);
    }

    private static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    private static ChildJvm start(String input, String output, Path stateDir, String appId) {
        ChildJvm app = ChildJvm.builder(WindowingApp.class)
                .args(KAFKA.bootstrapServers(), input, output, stateDir.toString(), appId,
                        Long.toString(OUT_OF_ORDERNESS))
                .jvmOptions("-Xmx512m", "-XX:+UseParallelGC")
                .quietLogging()
                .start();
        app.awaitOutput("READY", Duration.ofSeconds(60));
        return app;
    }
}
