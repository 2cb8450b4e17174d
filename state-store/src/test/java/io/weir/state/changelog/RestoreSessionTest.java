package io.weir.state.changelog;

import static io.weir.state.internal.Bytes.b;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.weir.state.memory.MemoryStore;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.MockConsumer;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.Test;

/** A restore advanced in slices, with stores joining and leaving in between. */
class RestoreSessionTest {

    private static final TopicPartition A = new TopicPartition("app-a-changelog", 0);
    private static final TopicPartition B = new TopicPartition("app-b-changelog", 0);

    private final MockConsumer<byte[], byte[]> consumer = new MockConsumer<>("none");

    /** One poll task that hands out {@code count} records of {@code tp} from its current position. */
    private void onNextPoll(TopicPartition tp, int count) {
        consumer.schedulePollTask(() -> {
            long from = consumer.position(tp);
            for (long i = from; i < from + count; i++) {
                consumer.addRecord(new ConsumerRecord<>(tp.topic(), tp.partition(), i, b("k" + i), b("v" + i)));
            }
        });
    }

    /** A session over changelog A, offsets 0 to 10. */
    private RestoreSession sessionOverTenRecordsOfA() {
        consumer.updateBeginningOffsets(Map.of(A, 0L));
        consumer.updateEndOffsets(Map.of(A, 10L));
        return new RestoreSession(consumer, Duration.ofMillis(1), Duration.ZERO, consumer::endOffsets);
    }

    @Test
    void slicesAdvanceEveryStoreAndReportEachWhenItIsDone() {
        consumer.updateBeginningOffsets(Map.of(A, 0L, B, 0L));
        consumer.updateEndOffsets(Map.of(A, 4L, B, 2L));
        MemoryStore a = MemoryStore.create("a");
        MemoryStore b = MemoryStore.create("b");
        RestoreSession session =
                new RestoreSession(consumer, Duration.ofMillis(1), Duration.ZERO, consumer::endOffsets);
        session.add(Map.of(A, a), tp -> RestoreListener.NONE);
        onNextPoll(A, 2);

        List<TopicPartition> first = session.step(Duration.ZERO); // one poll: half of A
        assertThat(first).isEmpty();
        assertThat(session.isRestoring(A)).isTrue();

        session.add(Map.of(B, b), tp -> RestoreListener.NONE); // B joins while A is under way
        consumer.schedulePollTask(() -> {
            for (long i = 2; i < 4; i++) {
                consumer.addRecord(new ConsumerRecord<>(A.topic(), 0, i, b("k" + i), b("v" + i)));
            }
            for (long i = 0; i < 2; i++) {
                consumer.addRecord(new ConsumerRecord<>(B.topic(), 0, i, b("k" + i), b("v" + i)));
            }
        });
        List<TopicPartition> second = session.step(Duration.ZERO);
        assertThat(second).containsExactlyInAnyOrder(A, B);
        assertThat(session.isEmpty()).isTrue();
        assertThat(a.changelogOffset()).hasValue(4);
        assertThat(b.changelogOffset()).hasValue(2);
        assertThat(a.get(b("k3"))).isEqualTo(b("v3"));
    }

    @Test
    void theEndOfATailedPartitionIsItsLastKnownEndWhateverTheStoreHasApplied() {
        MemoryStore a = MemoryStore.create("a");
        RestoreSession session = sessionOverTenRecordsOfA();
        assertThat(session.end(A)).isEmpty();
        session.tail(Map.of(A, a), tp -> RestoreListener.NONE);
        onNextPoll(A, 3);
        session.step(Duration.ZERO);

        assertThat(session.end(A)).hasValue(10);
        session.remove(List.of(A));
        assertThat(session.end(A)).isEmpty();
    }

    @Test
    void aSliceEndsAfterOnePollOnceTheOwnerAsksToYield() {
        MemoryStore a = MemoryStore.create("a");
        RestoreSession session = sessionOverTenRecordsOfA();
        session.tail(Map.of(A, a), tp -> RestoreListener.NONE);
        onNextPoll(A, 3);
        onNextPoll(A, 3);

        session.step(Duration.ofMinutes(1), () -> true); // would poll for a minute without the yield

        assertThat(consumer.position(A)).isEqualTo(3);
        session.close();
        await().atMost(Duration.ofSeconds(10)).until(() -> a.changelogOffset().isPresent());
        assertThat(a.changelogOffset()).hasValue(3);
    }

    @Test
    void aRemovedStoreIsNoLongerWrittenAndStaysAtItsLastBatch() {
        MemoryStore a = MemoryStore.create("a");
        RestoreSession session = sessionOverTenRecordsOfA();
        session.add(Map.of(A, a), tp -> RestoreListener.NONE);
        onNextPoll(A, 3);
        session.step(Duration.ZERO);

        session.remove(List.of(A));

        assertThat(session.isEmpty()).isTrue();
        assertThat(session.isRestoring(A)).isFalse();
        assertThat(a.changelogOffset()).hasValue(3);
        assertThat(consumer.assignment()).isEmpty();
        // A later restore of the same store resumes from its stored offset.
        RestoreSession again = new RestoreSession(consumer, Duration.ofMillis(1), Duration.ZERO, consumer::endOffsets);
        again.add(Map.of(A, a), tp -> RestoreListener.NONE);
        assertThat(consumer.position(A)).isEqualTo(3);
    }

    @Test
    void aStoreAlreadyUpToDateIsDoneWithoutPolling() {
        consumer.updateBeginningOffsets(Map.of(A, 0L));
        consumer.updateEndOffsets(Map.of(A, 0L));
        RestoreSession session =
                new RestoreSession(consumer, Duration.ofMillis(1), Duration.ZERO, consumer::endOffsets);
        long[] done = {-1};
        session.add(Map.of(A, MemoryStore.create("a")), tp -> new RestoreListener() {
            @Override
            public void onDone(long restored, long millis) {
                done[0] = restored;
            }
        });
        assertThat(done[0]).isZero();
        assertThat(session.isEmpty()).isTrue();
    }

    @Test
    void anUnresolvedTransactionKeepsTheStoreRestoringUntilTheEndReachesTheLogEnd() {
        consumer.updateBeginningOffsets(Map.of(A, 0L));
        consumer.updateEndOffsets(Map.of(A, 2L)); // the read_committed end, held back by a transaction
        MemoryStore a = MemoryStore.create("a");
        RestoreSession session =
                new RestoreSession(consumer, Duration.ofMillis(1), Duration.ofSeconds(30), tps -> Map.of(A, 4L));
        session.add(Map.of(A, a), tp -> RestoreListener.NONE);
        onNextPoll(A, 2);

        assertThat(session.step(Duration.ZERO)).isEmpty(); // caught up with 2, but the log ends at 4
        assertThat(session.step(Duration.ofMillis(300))).isEmpty();
        assertThat(session.isRestoring(A)).isTrue();
        assertThat(a.changelogOffset()).hasValue(2);

        consumer.updateEndOffsets(Map.of(A, 4L)); // its markers are written
        onNextPoll(A, 2);
        List<TopicPartition> finished = new ArrayList<>();
        await().pollInSameThread()
                .atMost(Duration.ofSeconds(10))
                .until(() -> finished.addAll(session.step(Duration.ofMillis(50))));
        assertThat(finished).containsExactly(A);
        assertThat(a.changelogOffset()).hasValue(4);
        assertThat(a.get(b("k3"))).isEqualTo(b("v3"));
    }

    @Test
    void aTransactionUnresolvedPastTheGraceEndsTheRestoreAtTheCommittedEnd() {
        consumer.updateBeginningOffsets(Map.of(A, 0L));
        consumer.updateEndOffsets(Map.of(A, 2L));
        MemoryStore a = MemoryStore.create("a");
        RestoreSession session =
                new RestoreSession(consumer, Duration.ofMillis(1), Duration.ofMillis(500), tps -> Map.of(A, 4L));
        session.add(Map.of(A, a), tp -> RestoreListener.NONE);
        onNextPoll(A, 2);

        List<TopicPartition> finished = new ArrayList<>();
        await().pollInSameThread()
                .atMost(Duration.ofSeconds(10))
                .until(() -> finished.addAll(session.step(Duration.ofMillis(50))));
        assertThat(finished).containsExactly(A);
        assertThat(session.isEmpty()).isTrue();
        assertThat(a.changelogOffset()).hasValue(2);
    }

    @Test
    void aStoreFarBehindLoadsInChunksAndOneCloseToItsEndInBatches() {
        assertThat(batchesToRestoreTenRecords(new RestoreSession.BulkLoad(10, 12)))
                .as("chunks of 12 bytes or more")
                .containsExactly(4L, 8L, 10L);
        assertThat(batchesToRestoreTenRecords(new RestoreSession.BulkLoad(11, 12)))
                .as("behind less than 11: batches")
                .containsExactly(2L, 4L, 6L, 8L, 10L);
        assertThat(batchesToRestoreTenRecords(RestoreSession.BulkLoad.OFF)).hasSize(5);
    }

    /** Restores A's ten records (two per poll, four bytes each) into a new store; the records applied at each batch. */
    private List<Long> batchesToRestoreTenRecords(RestoreSession.BulkLoad bulkLoad) {
        MockConsumer<byte[], byte[]> own = new MockConsumer<>("none");
        own.updateBeginningOffsets(Map.of(A, 0L));
        own.updateEndOffsets(Map.of(A, 10L));
        RestoreSession session =
                new RestoreSession(own, Duration.ofMillis(1), Duration.ZERO, own::endOffsets, bulkLoad);
        MemoryStore store = MemoryStore.create("a");
        List<Long> batches = new ArrayList<>();
        long[] ingested = {0};
        session.add(Map.of(A, store), tp -> new RestoreListener() {
            @Override
            public void onBatch(long restoredSoFar, long remaining) {
                batches.add(restoredSoFar);
            }

            @Override
            public void onIngested(long records) {
                ingested[0] += records;
            }
        });
        for (int poll = 0; poll < 5; poll++) {
            own.schedulePollTask(() -> {
                long from = own.position(A);
                for (long i = from; i < from + 2; i++) {
                    own.addRecord(new ConsumerRecord<>(A.topic(), 0, i, b("k" + i), b("v" + i)));
                }
            });
        }
        List<TopicPartition> done = new ArrayList<>();
        for (int step = 0; step < 5 && done.isEmpty(); step++) {
            done.addAll(session.step(Duration.ZERO));
        }
        assertThat(done).containsExactly(A);
        assertThat(store.changelogOffset()).hasValue(10);
        for (int i = 0; i < 10; i++) {
            assertThat(store.get(b("k" + i))).isEqualTo(b("v" + i));
        }
        assertThat(ingested[0])
                .as("records reported ingested")
                .isEqualTo(bulkLoad.minRecords() > 0 && bulkLoad.minRecords() <= 10 ? 10 : 0);
        return batches;
    }
}
