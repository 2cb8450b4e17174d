package io.weir.state.changelog;

import io.weir.state.rocksdb.RocksDbResources;
import io.weir.state.rocksdb.RocksDbStore;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;

/**
 * A child process for {@link BulkRestoreCrashIT}: restores a store from a changelog partition by
 * ingestion in small chunks (64 KiB, so a restore is many ingestions), printing "chunk N" as each
 * is in the store and "done" at the end, then waits to be killed without closing the store.
 * Arguments: store directory, bootstrap servers, changelog topic (partition 0).
 */
final class IngestingRestore {

    static final RestoreSession.BulkLoad SMALL_CHUNKS = new RestoreSession.BulkLoad(1, 64 << 10);

    private IngestingRestore() {}

    public static void main(String[] args) throws InterruptedException {
        RocksDbResources resources = RocksDbResources.create(RocksDbResources.Config.ofTotalBytes(16L << 20));
        RocksDbStore store = RocksDbStore.open(Path.of(args[0]), "ingested", resources);
        TopicPartition changelog = new TopicPartition(args[2], 0);
        AtomicInteger chunks = new AtomicInteger();
        try (KafkaConsumer<byte[], byte[]> consumer = consumer(args[1])) {
            restore(consumer, changelog, store, SMALL_CHUNKS, new RestoreListener() {
                @Override
                public void onBatch(long restoredSoFar, long remaining) {
                    System.out.println("chunk " + chunks.incrementAndGet());
                    System.out.flush();
                }
            });
        }
        System.out.println("done");
        System.out.flush();
        new CountDownLatch(1).await(); // wait to be killed, never closing the store
    }

    /** Restores {@code store} to the changelog's end with {@code bulkLoad}. */
    static void restore(
            KafkaConsumer<byte[], byte[]> consumer,
            TopicPartition changelog,
            RocksDbStore store,
            RestoreSession.BulkLoad bulkLoad,
            RestoreListener listener) {
        try (RestoreSession session =
                new RestoreSession(consumer, Duration.ofMillis(100), Duration.ZERO, consumer::endOffsets, bulkLoad)) {
            session.add(Map.of(changelog, store), tp -> listener);
            List<TopicPartition> done = new ArrayList<>();
            while (done.isEmpty() && !session.isEmpty()) {
                done.addAll(session.step(Duration.ofMillis(500)));
            }
        }
    }

    static KafkaConsumer<byte[], byte[]> consumer(String bootstrapServers) {
        return new KafkaConsumer<>(
                Map.of(
                        ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers,
                        ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed",
                        ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, "false",
                        ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "none",
                        ConsumerConfig.MAX_POLL_RECORDS_CONFIG, "2000"),
                new ByteArrayDeserializer(),
                new ByteArrayDeserializer());
    }
}
