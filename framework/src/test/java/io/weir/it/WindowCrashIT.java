package io.weir.it;

import static io.weir.it.CrashRecords.bytes;

import io.weir.testing.WindowCrashes;
import io.weir.testing.WindowingApp;
import io.weir.testkit.ChildJvm;
import io.weir.testkit.KafkaExtension;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.ProducerRecord;
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
    private static final long BASE = java.time.Instant.now()
            .minus(java.time.Duration.ofHours(2))
            .truncatedTo(java.time.temporal.ChronoUnit.HOURS)
            .toEpochMilli();
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

        WindowCrashes.killWhileWindowsAreOpen(
                () -> start(input, output, stateDir, appId), KAFKA.client(), output, 3, random, model.size());
        List<ConsumerRecord<byte[], byte[]>> out = WindowCrashes.runToTheEnd(
                () -> start(input, output, stateDir, appId), KAFKA.client(), output, model.size());
        WindowCrashes.assertEveryWindowOnce(out, model, seed);
    }

    private static ChildJvm start(String input, String output, Path stateDir, String appId) {
        return WindowingApp.start(KAFKA.bootstrapServers(), input, output, stateDir, appId, OUT_OF_ORDERNESS, false);
    }
}
