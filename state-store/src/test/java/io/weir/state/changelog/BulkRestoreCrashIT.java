package io.weir.state.changelog;

import static io.weir.state.internal.Bytes.b;
import static io.weir.state.internal.Bytes.s;
import static org.assertj.core.api.Assertions.assertThat;

import io.weir.common.KeyValue;
import io.weir.state.internal.BytesIterator;
import io.weir.state.rocksdb.RocksDbResources;
import io.weir.state.rocksdb.RocksDbStore;
import io.weir.testkit.ChildJvm;
import io.weir.testkit.KafkaExtension;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * A restore by ingestion killed with SIGKILL, again and again at different points (while a chunk is
 * sorted, written into its file, ingested, or between the ingestion and the offset), on a real
 * broker: each restart resumes from the stored offset over whatever the killed process left, and
 * the store ends exactly the changelog's last write of every key, deletes included.
 */
class BulkRestoreCrashIT {

    @RegisterExtension
    static final KafkaExtension KAFKA = KafkaExtension.perClass();

    private static final int RECORDS = 200_000;
    private static final int KEYS = 40_000;

    @TempDir
    Path dir;

    @Test
    void aRestoreKilledWhileIngestingEndsExactOnceRestarted() throws IOException {
        TopicPartition changelog = new TopicPartition(KAFKA.uniqueTopic("ingested-changelog", 1), 0);
        Map<String, String> expected = writeChangelog(changelog);
        Path storeDir = dir.resolve("store");

        for (String killAt : List.of("chunk 3", "chunk 9", "chunk 20")) {
            try (ChildJvm restore = ChildJvm.builder(IngestingRestore.class)
                    .args(storeDir.toString(), KAFKA.bootstrapServers(), changelog.topic())
                    .jvmOptions("-Xmx256m")
                    .start()) {
                restore.awaitOutput(killAt, Duration.ofMinutes(2));
                restore.kill();
                assertThat(restore.output())
                        .as("killed before the restore finished")
                        .doesNotContain("done");
            }
        }

        try (RocksDbResources resources = RocksDbResources.create(RocksDbResources.Config.ofTotalBytes(16L << 20));
                RocksDbStore store = RocksDbStore.open(storeDir, "ingested", resources);
                KafkaConsumer<byte[], byte[]> consumer = IngestingRestore.consumer(KAFKA.bootstrapServers())) {
            assertThat(store.changelogOffset())
                    .as("three processes ingested before they were killed")
                    .isPresent();
            assertThat(leftIngestFiles(storeDir))
                    .as("a file written but not ingested is deleted on open")
                    .isEmpty();

            IngestingRestore.restore(consumer, changelog, store, IngestingRestore.SMALL_CHUNKS, RestoreListener.NONE);

            assertThat(contents(store)).isEqualTo(expected);
            assertThat(store.changelogOffset()).hasValue(RECORDS);
        }
    }

    /** Puts and deletes over {@link #KEYS} keys; returns the last write of each key (deleted keys absent). */
    private static Map<String, String> writeChangelog(TopicPartition changelog) {
        Map<String, String> expected = new TreeMap<>();
        List<ProducerRecord<byte[], byte[]>> records = new ArrayList<>();
        java.util.Random random = new java.util.Random(7);
        for (int i = 0; i < RECORDS; i++) {
            String key = "key-" + random.nextInt(KEYS);
            String value = random.nextInt(10) == 0 ? null : "value-" + i;
            records.add(new ProducerRecord<>(changelog.topic(), 0, b(key), value == null ? null : b(value)));
            if (value == null) {
                expected.remove(key);
            } else {
                expected.put(key, value);
            }
        }
        KAFKA.client().send(records);
        return expected;
    }

    private static Map<String, String> contents(RocksDbStore store) {
        Map<String, String> contents = new TreeMap<>();
        try (BytesIterator it = store.all(false)) {
            while (it.hasNext()) {
                KeyValue<byte[], byte[]> e = it.next();
                contents.put(s(e.key()), s(e.value()));
            }
        }
        return contents;
    }

    private static List<Path> leftIngestFiles(Path storeDir) throws IOException {
        try (Stream<Path> files = Files.list(storeDir)) {
            return files.filter(f -> f.getFileName().toString().startsWith("weir-ingest-"))
                    .toList();
        }
    }
}
