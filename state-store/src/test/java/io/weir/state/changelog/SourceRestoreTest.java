package io.weir.state.changelog;

import static io.weir.state.internal.Bytes.b;
import static org.assertj.core.api.Assertions.assertThat;

import io.weir.state.internal.WriteBatch;
import io.weir.state.memory.MemoryStore;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.MockConsumer;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.Test;

/**
 * A store restored from the topic its table reads (a compacted source topic serving as its
 * changelog): up to the committed input offset only, through what processing accepts.
 */
class SourceRestoreTest {

    private static final TopicPartition CUSTOMERS = new TopicPartition("customers", 0);

    private final MockConsumer<byte[], byte[]> consumer = new MockConsumer<>("none");

    /** Accepts records whose value is not "bad", and stores values upper-cased (its canonical form). */
    private static final SourceRecords UPPER = r -> {
        if (r.value() != null && new String(r.value(), StandardCharsets.UTF_8).equals("bad")) {
            return null;
        }
        return new SourceRecords.Entry(
                r.key(),
                r.value() == null
                        ? null
                        : new String(r.value(), StandardCharsets.UTF_8)
                                .toUpperCase()
                                .getBytes(StandardCharsets.UTF_8));
    };

    /** Every poll hands out the records of {@code values} from the current position to the end (k = offset % 3). */
    private void topic(String... values) {
        consumer.updateBeginningOffsets(Map.of(CUSTOMERS, 0L));
        consumer.updateEndOffsets(Map.of(CUSTOMERS, (long) values.length));
        for (int poll = 0; poll < 5; poll++) {
            consumer.schedulePollTask(() -> {
                for (long i = consumer.position(CUSTOMERS); i < values.length; i++) {
                    String v = values[(int) i];
                    consumer.addRecord(
                            new ConsumerRecord<>(CUSTOMERS.topic(), 0, i, b("k" + i % 3), v == null ? null : b(v)));
                }
            });
        }
    }

    private RestoreSession session() {
        return new RestoreSession(consumer, Duration.ofMillis(1), Duration.ZERO, consumer::endOffsets);
    }

    private static final class Skips implements RestoreListener {
        final List<Long> skipped = new ArrayList<>();
        boolean done;

        @Override
        public void onSkipped(long offset) {
            skipped.add(offset);
        }

        @Override
        public void onDone(long restored, long millis) {
            done = true;
        }
    }

    @Test
    void stopsAtTheCommittedOffsetNotAtTheEndOfTheTopic() {
        topic("a", "b", "c", "d", "e", "f"); // k0=a k1=b k2=c k0=d k1=e k2=f
        MemoryStore store = MemoryStore.create("customers");
        RestoreSession session = session();
        Skips listener = new Skips();
        session.add(Map.of(CUSTOMERS, store), tp -> listener, Map.of(CUSTOMERS, new SourceRecords.Bound(4, UPPER)));
        while (!session.isEmpty()) {
            session.step(Duration.ofMillis(5));
        }

        assertThat(listener.done).isTrue();
        assertThat(store.changelogOffset()).hasValue(4);
        assertThat(store.get(b("k0"))).isEqualTo(b("D")); // offset 3, before the bound
        assertThat(store.get(b("k1"))).isEqualTo(b("B")); // e at 4 is the task's to process
        assertThat(store.get(b("k2"))).isEqualTo(b("C"));
    }

    @Test
    void skipsWhatProcessingRejectsAndCountsIt() {
        topic("a", "bad", null, "bad", "e"); // k1=bad k2=tombstone k0=bad k1=e
        MemoryStore store = MemoryStore.create("customers");
        store.apply(new WriteBatch(1).put(b("k2"), b("OLD")), 0);
        RestoreSession session = session();
        Skips listener = new Skips();
        session.add(Map.of(CUSTOMERS, store), tp -> listener, Map.of(CUSTOMERS, new SourceRecords.Bound(5, UPPER)));
        while (!session.isEmpty()) {
            session.step(Duration.ofMillis(5));
        }

        assertThat(listener.skipped).containsExactly(1L, 3L);
        assertThat(store.get(b("k0"))).isEqualTo(b("A")); // the bad record at 3 did not replace it
        assertThat(store.get(b("k1"))).isEqualTo(b("E"));
        assertThat(store.get(b("k2"))).isNull(); // the tombstone deleted it
        assertThat(store.changelogOffset()).hasValue(5);
    }

    @Test
    void aStoreAheadOfTheCommittedOffsetIsRebuiltFromTheBeginning() {
        topic("a", "b", "c", "d", "e", "f");
        MemoryStore store = MemoryStore.create("customers");
        // What a standby or an earlier run left: everything to offset 6, while the group's offset
        // was moved back to 2 (a reset, a savepoint restore).
        store.apply(new WriteBatch(3).put(b("k0"), b("D")).put(b("k1"), b("E")).put(b("k2"), b("F")), 6);
        RestoreSession session = session();
        session.add(
                Map.of(CUSTOMERS, store),
                tp -> RestoreListener.NONE,
                Map.of(CUSTOMERS, new SourceRecords.Bound(2, UPPER)));
        while (!session.isEmpty()) {
            session.step(Duration.ofMillis(5));
        }

        assertThat(store.changelogOffset()).hasValue(2);
        assertThat(store.get(b("k0"))).isEqualTo(b("A"));
        assertThat(store.get(b("k1"))).isEqualTo(b("B"));
        assertThat(store.get(b("k2"))).isNull();
    }

    @Test
    void aStoreAtTheCommittedOffsetReadsNothing() {
        topic("a", "b", "c");
        MemoryStore store = MemoryStore.create("customers");
        store.apply(new WriteBatch(1).put(b("k0"), b("A")), 1);
        RestoreSession session = session();
        Skips listener = new Skips();
        session.add(Map.of(CUSTOMERS, store), tp -> listener, Map.of(CUSTOMERS, new SourceRecords.Bound(1, UPPER)));

        assertThat(session.isEmpty()).isTrue();
        assertThat(listener.done).isTrue();
        assertThat(store.changelogOffset()).hasValue(1);
    }

    @Test
    void resumesFromTheStoredOffset() {
        topic("a", "b", "c", "d", "e", "f");
        MemoryStore store = MemoryStore.create("customers");
        store.apply(new WriteBatch(1).put(b("k0"), b("A")), 1);
        RestoreSession session = session();
        session.add(
                Map.of(CUSTOMERS, store),
                tp -> RestoreListener.NONE,
                Map.of(CUSTOMERS, new SourceRecords.Bound(6, UPPER)));
        while (!session.isEmpty()) {
            session.step(Duration.ofMillis(5));
        }
        assertThat(store.get(b("k0"))).isEqualTo(b("D"));
        assertThat(store.get(b("k2"))).isEqualTo(b("F"));
        assertThat(store.changelogOffset()).hasValue(6);
    }
}
