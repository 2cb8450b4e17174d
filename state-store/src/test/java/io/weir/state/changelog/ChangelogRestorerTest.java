package io.weir.state.changelog;

import static io.weir.state.internal.Bytes.b;
import static io.weir.state.internal.Bytes.entries;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.weir.errors.StateStoreException;
import io.weir.state.internal.BytesIterator;
import io.weir.state.internal.BytesStore;
import io.weir.state.internal.WriteBatch;
import io.weir.state.memory.MemoryStore;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.MockConsumer;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.Test;

/** The restore loop without a broker: batching, order, progress and failures. */
class ChangelogRestorerTest {

    private static final TopicPartition CHANGELOG = new TopicPartition("app-store-changelog", 0);

    private final MockConsumer<byte[], byte[]> consumer = new MockConsumer<>("none");

    @Test
    void appliesOneBatchPerPollInOrderWithTheConsumerPosition() {
        changelogOf(3, 10);
        Recording store = new Recording(MemoryStore.create("store"));
        List<String> progress = new ArrayList<>();

        long restored = new ChangelogRestorer(consumer).restore(CHANGELOG, store, new RestoreListener() {
            @Override
            public void onBatch(long restoredSoFar, long remaining) {
                progress.add(restoredSoFar + "/" + remaining);
            }
        });

        assertThat(restored).isEqualTo(30);
        assertThat(store.offsets).containsExactly(10L, 20L, 30L);
        assertThat(progress).containsExactly("10/20", "20/10", "30/0");
        assertThat(store.changelogOffset()).hasValue(30);
        // key k<i % 7> last written by offset 23..29
        assertThat(entries(store.all(false)))
                .containsExactly("k0=v28", "k1=v29", "k2=v23", "k3=v24", "k4=v25", "k5=v26", "k6=v27");
    }

    @Test
    void failureToApplyABatchEndsTheRestoreWithThatFailure() {
        changelogOf(3, 10);
        Recording store = new Recording(MemoryStore.create("store"));
        store.failAt = 20;

        assertThatThrownBy(() -> new ChangelogRestorer(consumer).restore(CHANGELOG, store, RestoreListener.NONE))
                .isInstanceOf(StateStoreException.class)
                .hasMessageContaining("disk full");
        assertThat(store.changelogOffset()).hasValue(10); // consistent at the last applied batch
    }

    @Test
    void resumesFromTheStoredOffset() {
        changelogOf(3, 10);
        MemoryStore store = MemoryStore.create("store");
        store.apply(new WriteBatch().put(b("k0"), b("v0")), 20);

        assertThat(new ChangelogRestorer(consumer).restore(CHANGELOG, store, RestoreListener.NONE))
                .isEqualTo(10);
    }

    @Test
    void storedOffsetBeyondTheEndWaitsForTheEndWithinTheGraceInsteadOfWiping() {
        // an open transaction of a dead producer holds the last stable offset below what this
        // store already committed; it is aborted a little later and the end moves on
        consumer.updateBeginningOffsets(Map.of(CHANGELOG, 0L));
        consumer.updateEndOffsets(Map.of(CHANGELOG, 5L));
        consumer.schedulePollTask(() -> consumer.updateEndOffsets(Map.of(CHANGELOG, 12L)));
        MemoryStore store = MemoryStore.create("store");
        store.apply(new WriteBatch().put(b("kept"), b("1")), 12);

        ChangelogRestorer restorer = new ChangelogRestorer(consumer, Duration.ofMillis(10), Duration.ofSeconds(30));
        assertThat(restorer.restore(CHANGELOG, store, RestoreListener.NONE)).isZero();
        assertThat(entries(store.all(false))).containsExactly("kept=1");
        assertThat(store.changelogOffset()).hasValue(12);
    }

    /** {@code polls} polls of {@code perPoll} records each; record i sets k(i % 7) to v(i). */
    private void changelogOf(int polls, int perPoll) {
        consumer.updateBeginningOffsets(Map.of(CHANGELOG, 0L));
        consumer.updateEndOffsets(Map.of(CHANGELOG, (long) polls * perPoll));
        for (int p = 0; p < polls; p++) {
            int base = p * perPoll;
            consumer.schedulePollTask(() -> {
                long from = consumer.position(CHANGELOG); // a resumed restore starts past some polls
                for (int i = base; i < base + perPoll; i++) {
                    if (i >= from) {
                        consumer.addRecord(new ConsumerRecord<>(CHANGELOG.topic(), 0, i, b("k" + i % 7), b("v" + i)));
                    }
                }
            });
        }
    }

    /** Records the offsets of applied batches; can fail at a given offset. */
    private static final class Recording implements BytesStore {
        final BytesStore delegate;
        final List<Long> offsets = new ArrayList<>();
        long failAt = -1;

        Recording(BytesStore delegate) {
            this.delegate = delegate;
        }

        @Override
        public void apply(WriteBatch changes, long changelogOffset) {
            if (changelogOffset == failAt) {
                throw new StateStoreException("disk full");
            }
            delegate.apply(changes, changelogOffset);
            offsets.add(changelogOffset);
        }

        @Override
        public String name() {
            return delegate.name();
        }

        @Override
        public byte[] get(byte[] key) {
            return delegate.get(key);
        }

        @Override
        public BytesIterator range(byte[] from, byte[] to, boolean reverse) {
            return delegate.range(from, to, reverse);
        }

        @Override
        public BytesIterator prefix(byte[] prefix) {
            return delegate.prefix(prefix);
        }

        @Override
        public long approximateCount() {
            return delegate.approximateCount();
        }

        @Override
        public OptionalLong changelogOffset() {
            return delegate.changelogOffset();
        }

        @Override
        public java.util.Optional<String> changelogTopicId() {
            return delegate.changelogTopicId();
        }

        @Override
        public void recordChangelogTopicId(String topicId) {
            delegate.recordChangelogTopicId(topicId);
        }

        @Override
        public void applyDeletes(WriteBatch deletes) {
            delegate.applyDeletes(deletes);
        }

        @Override
        public void clear() {
            delegate.clear();
        }

        @Override
        public void close() {
            delegate.close();
        }

        @Override
        public void destroy() {
            delegate.destroy();
        }
    }
}
