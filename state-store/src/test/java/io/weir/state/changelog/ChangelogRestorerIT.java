package io.weir.state.changelog;

import static io.weir.state.internal.Bytes.b;
import static io.weir.state.internal.Bytes.batch;
import static io.weir.state.internal.Bytes.entries;
import static org.assertj.core.api.Assertions.assertThat;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import io.weir.state.internal.BytesStore;
import io.weir.state.rocksdb.RocksDbBudget;
import io.weir.state.rocksdb.RocksDbStore;
import io.weir.testkit.KafkaExtension;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.RecordsToDelete;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.LoggerFactory;

class ChangelogRestorerIT {

    @RegisterExtension
    static final KafkaExtension KAFKA = KafkaExtension.perClass();

    @RegisterExtension
    static final RocksDbBudget ROCKSDB = new RocksDbBudget();

    @TempDir
    Path dir;

    @Test
    void restoresCommittedChangesOnlyAndThenOnlyTheTail() {
        TopicPartition changelog = new TopicPartition(KAFKA.uniqueTopic("store-changelog", 1), 0);
        try (KafkaProducer<byte[], byte[]> producer = transactionalProducer()) {
            producer.initTransactions();
            writeTransaction(producer, changelog, true, "k1=v1", "k2=v2", "k3=v3");
            writeTransaction(producer, changelog, false, "k4=aborted", "k1=aborted");
            writeTransaction(producer, changelog, true, "k2=-", "k5=v5");
            // 7 data records + 3 markers: the last offset holds a marker, never returned by a poll
            awaitTransactionsResolved(changelog); // this restorer reads up to the end it sees at its start

            RocksDbStore store = ROCKSDB.open(dir, "store");
            Progress progress = new Progress();
            try (KafkaConsumer<byte[], byte[]> consumer = restoreConsumer()) {
                long restored = new ChangelogRestorer(consumer).restore(changelog, store, progress);

                assertThat(restored).isEqualTo(5);
                assertThat(progress.done).containsExactly(5L);
                assertThat(progress.lastRemaining).isZero();
                assertThat(entries(store.all(false))).containsExactly("k1=v1", "k3=v3", "k5=v5");
                assertThat(store.changelogOffset()).hasValue(10);
            }

            // the store is closed and reopened (a restart), the changelog grows, restore reads the tail
            store.close();
            writeTransaction(producer, changelog, true, "k6=v6", "k1=v11");
            awaitTransactionsResolved(changelog);
            store = ROCKSDB.open(dir, "store");
            try (KafkaConsumer<byte[], byte[]> consumer = restoreConsumer()) {
                long restored = new ChangelogRestorer(consumer).restore(changelog, store, RestoreListener.NONE);

                assertThat(restored).isEqualTo(2);
                assertThat(entries(store.all(false))).containsExactly("k1=v11", "k3=v3", "k5=v5", "k6=v6");
                assertThat(store.changelogOffset()).hasValue(13);
                // up to date: nothing to do
                assertThat(new ChangelogRestorer(consumer).restore(changelog, store, RestoreListener.NONE))
                        .isZero();
            } finally {
                store.close();
            }
        }
    }

    @Test
    void restoresInManyBatchesReportingProgress() {
        TopicPartition changelog = new TopicPartition(KAFKA.uniqueTopic("big-changelog", 1), 0);
        int records = 20_000;
        try (KafkaProducer<byte[], byte[]> producer = transactionalProducer()) {
            producer.initTransactions();
            producer.beginTransaction();
            for (int i = 0; i < records; i++) {
                producer.send(new ProducerRecord<>(changelog.topic(), 0, b("key-" + (i % 5_000)), b("v" + i)));
            }
            producer.commitTransaction();
        }
        awaitTransactionsResolved(changelog);
        try (RocksDbStore store = ROCKSDB.open(dir, "big");
                KafkaConsumer<byte[], byte[]> consumer =
                        restoreConsumer(Map.of(ConsumerConfig.MAX_POLL_RECORDS_CONFIG, "1000"))) {
            Progress progress = new Progress();
            assertThat(new ChangelogRestorer(consumer).restore(changelog, store, progress))
                    .isEqualTo(records);
            assertThat(progress.batches).isGreaterThanOrEqualTo(records / 1000);
            assertThat(entries(store.all(false))).hasSize(5_000);
            assertThat(store.get(b("key-4999"))).isEqualTo(b("v" + (records - 1)));
            assertThat(store.changelogOffset()).hasValue(records + 1L);
        }
    }

    @Test
    void storedOffsetBeyondTheEndWipesTheStoreAndRestoresFromTheBeginning() {
        TopicPartition changelog = new TopicPartition(KAFKA.uniqueTopic("recreated-changelog", 1), 0);
        KAFKA.client().send(List.of(record(changelog, "a", "1"), record(changelog, "b", "2")));
        try (RocksDbStore store = ROCKSDB.open(dir, "ahead");
                KafkaConsumer<byte[], byte[]> consumer = restoreConsumer()) {
            store.apply(batch("stale=from-the-old-topic"), 1_000);

            assertThat(new ChangelogRestorer(consumer).restore(changelog, store, RestoreListener.NONE))
                    .isEqualTo(2);
            assertThat(entries(store.all(false))).containsExactly("a=1", "b=2");
            assertThat(store.changelogOffset()).hasValue(2);
        }
    }

    @Test
    void storedOffsetBeforeTheBeginningWipesTheStoreAndRestoresFromTheBeginning() throws Exception {
        TopicPartition changelog = new TopicPartition(KAFKA.uniqueTopic("truncated-changelog", 1), 0);
        KAFKA.client()
                .send(List.of(
                        record(changelog, "a", "1"),
                        record(changelog, "b", "2"),
                        record(changelog, "c", "3"),
                        record(changelog, "d", "4")));
        KAFKA.admin()
                .deleteRecords(Map.of(changelog, RecordsToDelete.beforeOffset(2)))
                .all()
                .get();
        try (BytesStore store = ROCKSDB.open(dir, "behind");
                KafkaConsumer<byte[], byte[]> consumer = restoreConsumer()) {
            store.apply(batch("a=1"), 1); // it missed offset 1, which is gone

            assertThat(new ChangelogRestorer(consumer).restore(changelog, store, RestoreListener.NONE))
                    .isEqualTo(2);
            assertThat(entries(store.all(false))).containsExactly("c=3", "d=4");
            assertThat(store.changelogOffset()).hasValue(4);
        }
    }

    @Test
    void storedOffsetAheadOfAnOpenTransactionWaitsForItInsteadOfWiping() throws Exception {
        TopicPartition changelog = new TopicPartition(KAFKA.uniqueTopic("zombie-changelog", 1), 0);
        ScheduledExecutorService later = Executors.newSingleThreadScheduledExecutor();
        try (KafkaProducer<byte[], byte[]> zombie = transactionalProducer();
                KafkaProducer<byte[], byte[]> owner = transactionalProducer();
                RocksDbStore store = ROCKSDB.open(dir, "zombie");
                KafkaConsumer<byte[], byte[]> consumer = restoreConsumer()) {
            zombie.initTransactions();
            owner.initTransactions();
            zombie.beginTransaction();
            zombie.send(record(changelog, "z", "zombie")).get(); // offset 0, left open: holds the LSO at 0
            writeTransaction(owner, changelog, true, "a=1"); // offsets 1 and its marker 2
            store.apply(batch("a=1"), 3); // the new owner committed and applied it
            // the dead producer's transaction is aborted a little later (here by hand; in
            // production by the transaction timeout)
            ScheduledFuture<?> abort = later.schedule(
                    () -> {
                        zombie.abortTransaction();
                        return null;
                    },
                    500,
                    TimeUnit.MILLISECONDS);

            ChangelogRestorer restorer =
                    new ChangelogRestorer(consumer, Duration.ofMillis(100), Duration.ofSeconds(30));
            assertThat(restorer.restore(changelog, store, RestoreListener.NONE)).isZero();

            abort.get();
            assertThat(entries(store.all(false))).containsExactly("a=1");
            assertThat(store.changelogOffset()).hasValue(4); // past the abort marker
        } finally {
            later.shutdownNow();
        }
    }

    @Test
    void aTransactionCommittedButNotYetResolvedIsWaitedForAndRestored() throws Exception {
        TopicPartition changelog = new TopicPartition(KAFKA.uniqueTopic("pending-changelog", 1), 0);
        ScheduledExecutorService later = Executors.newSingleThreadScheduledExecutor();
        try (KafkaProducer<byte[], byte[]> before = transactionalProducer();
                KafkaProducer<byte[], byte[]> previousOwner = transactionalProducer();
                RocksDbStore store = ROCKSDB.open(dir, "pending");
                KafkaConsumer<byte[], byte[]> consumer = restoreConsumer();
                KafkaConsumer<byte[], byte[]> logEnds = logEndConsumer()) {
            before.initTransactions();
            writeTransaction(before, changelog, true, "a=1", "b=2"); // offsets 0, 1 and the marker 2
            awaitTransactionsResolved(changelog);
            previousOwner.initTransactions();
            previousOwner.beginTransaction();
            previousOwner.send(record(changelog, "c", "3"));
            previousOwner.send(record(changelog, "a", "11"));
            previousOwner.flush(); // offsets 3 and 4 in the log, not yet committed: the end stays at 3
            // Its markers are written a while after the restore has read the end (as when the
            // previous owner's commitTransaction() returned just before the restore started).
            ScheduledFuture<?> commit = later.schedule(
                    () -> {
                        previousOwner.commitTransaction();
                        return null;
                    },
                    1,
                    TimeUnit.SECONDS);

            ChangelogRestorer restorer = new ChangelogRestorer(
                    consumer, Duration.ofMillis(100), Duration.ofSeconds(30), logEnds::endOffsets);
            long restored = restorer.restore(changelog, store, RestoreListener.NONE);

            commit.get();
            assertThat(restored).isEqualTo(4);
            assertThat(entries(store.all(false))).containsExactly("a=11", "b=2", "c=3");
            assertThat(store.changelogOffset()).hasValue(6); // past the commit marker at 5
        } finally {
            later.shutdownNow();
        }
    }

    @Test
    void aTransactionNeverResolvedEndsTheRestoreAfterTheGraceWithAWarning() {
        TopicPartition changelog = new TopicPartition(KAFKA.uniqueTopic("open-changelog", 1), 0);
        Logger sessionLog = (Logger) LoggerFactory.getLogger(RestoreSession.class);
        ListAppender<ILoggingEvent> logged = new ListAppender<>();
        logged.start();
        sessionLog.addAppender(logged);
        try (KafkaProducer<byte[], byte[]> before = transactionalProducer();
                KafkaProducer<byte[], byte[]> zombie = transactionalProducer();
                RocksDbStore store = ROCKSDB.open(dir, "open");
                KafkaConsumer<byte[], byte[]> consumer = restoreConsumer();
                KafkaConsumer<byte[], byte[]> logEnds = logEndConsumer()) {
            before.initTransactions();
            writeTransaction(before, changelog, true, "a=1", "b=2"); // offsets 0, 1 and the marker 2
            awaitTransactionsResolved(changelog);
            zombie.initTransactions();
            zombie.beginTransaction();
            zombie.send(record(changelog, "z", "zombie"));
            zombie.flush(); // offset 3, left open for the rest of the test

            Duration grace = Duration.ofSeconds(1);
            long started = System.nanoTime();
            long restored = new ChangelogRestorer(consumer, Duration.ofMillis(100), grace, logEnds::endOffsets)
                    .restore(changelog, store, RestoreListener.NONE);

            assertThat(Duration.ofNanos(System.nanoTime() - started)).isGreaterThanOrEqualTo(grace);
            assertThat(restored).isEqualTo(2);
            assertThat(entries(store.all(false))).containsExactly("a=1", "b=2");
            assertThat(store.changelogOffset()).hasValue(3);
            assertThat(logged.list).anySatisfy(event -> {
                assertThat(event.getLevel()).isEqualTo(Level.WARN);
                assertThat(event.getFormattedMessage()).contains(changelog.toString(), "not resolved");
            });
            zombie.abortTransaction();
        } finally {
            sessionLog.detachAppender(logged);
        }
    }

    @Test
    void emptyChangelogRestoresNothing() {
        TopicPartition changelog = new TopicPartition(KAFKA.uniqueTopic("empty-changelog", 1), 0);
        try (BytesStore store = ROCKSDB.open(dir, "empty");
                KafkaConsumer<byte[], byte[]> consumer = restoreConsumer()) {
            Progress progress = new Progress();
            assertThat(new ChangelogRestorer(consumer).restore(changelog, store, progress))
                    .isZero();
            assertThat(progress.done).containsExactly(0L);
            assertThat(store.changelogOffset()).isEmpty();
        }
    }

    private static void writeTransaction(
            KafkaProducer<byte[], byte[]> producer,
            TopicPartition changelog,
            boolean commit,
            String... keyEqualsValue) {
        producer.beginTransaction();
        for (String kv : keyEqualsValue) {
            String[] parts = kv.split("=", 2);
            producer.send(record(changelog, parts[0], parts[1].equals("-") ? null : parts[1]));
        }
        if (commit) {
            producer.commitTransaction();
        } else {
            producer.flush(); // the aborted records really are in the log
            producer.abortTransaction();
        }
    }

    /**
     * {@code commitTransaction} returns once the coordinator has decided, before its markers are in
     * the partition; until then a read_committed reader's end (the last stable offset) stops short
     * of the transaction. Waits, with a deadline, until it reaches the log's end.
     */
    private static void awaitTransactionsResolved(TopicPartition tp) {
        try (KafkaConsumer<byte[], byte[]> committed = restoreConsumer();
                KafkaConsumer<byte[], byte[]> all =
                        restoreConsumer(Map.of(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_uncommitted"))) {
            long deadline = System.nanoTime() + java.time.Duration.ofSeconds(30).toNanos();
            while (committed.endOffsets(java.util.List.of(tp)).get(tp)
                    < all.endOffsets(java.util.List.of(tp)).get(tp)) {
                if (System.nanoTime() - deadline > 0) {
                    throw new AssertionError("the transactions on " + tp + " were not resolved within 30 s");
                }
            }
        }
    }

    private static ProducerRecord<byte[], byte[]> record(TopicPartition tp, String key, String value) {
        return new ProducerRecord<>(tp.topic(), tp.partition(), b(key), value == null ? null : b(value));
    }

    private static KafkaProducer<byte[], byte[]> transactionalProducer() {
        return new KafkaProducer<>(
                Map.of(
                        ProducerConfig.BOOTSTRAP_SERVERS_CONFIG,
                        KAFKA.bootstrapServers(),
                        ProducerConfig.TRANSACTIONAL_ID_CONFIG,
                        "restorer-it-" + UUID.randomUUID()),
                new ByteArraySerializer(),
                new ByteArraySerializer());
    }

    /** A consumer that sees the log end (high watermark) of a partition, unresolved transactions included. */
    private static KafkaConsumer<byte[], byte[]> logEndConsumer() {
        return restoreConsumer(Map.of(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_uncommitted"));
    }

    private static KafkaConsumer<byte[], byte[]> restoreConsumer() {
        return restoreConsumer(Map.of());
    }

    private static KafkaConsumer<byte[], byte[]> restoreConsumer(Map<String, Object> overrides) {
        Map<String, Object> config = new java.util.HashMap<>(Map.of(
                ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, KAFKA.bootstrapServers(),
                ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed",
                ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, "false",
                ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "none",
                ConsumerConfig.MAX_POLL_RECORDS_CONFIG, "10000"));
        config.putAll(overrides);
        return new KafkaConsumer<>(config, new ByteArrayDeserializer(), new ByteArrayDeserializer());
    }

    /** Records what the restorer reported. */
    private static final class Progress implements RestoreListener {
        final List<Long> done = new ArrayList<>();
        int batches;
        long lastRemaining = -1;

        @Override
        public void onBatch(long restoredSoFar, long remaining) {
            batches++;
            lastRemaining = remaining;
        }

        @Override
        public void onDone(long restored, long millis) {
            done.add(restored);
        }
    }
}
