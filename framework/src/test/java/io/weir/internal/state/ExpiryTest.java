package io.weir.internal.state;

import static io.weir.internal.state.TypedWindowStoreTest.drain;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.weir.internal.topology.StoreSpec;
import io.weir.internal.topology.StoreSpecs;
import io.weir.processor.TaskId;
import io.weir.state.SessionStore;
import io.weir.state.WindowStore;
import io.weir.state.Windowed;
import io.weir.state.internal.BytesIterator;
import io.weir.state.internal.BytesStore;
import io.weir.state.internal.WriteBatch;
import io.weir.state.memory.MemoryStore;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.OptionalLong;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/** Dropping windows and sessions past their retention, through {@link TaskStore}. */
class ExpiryTest {

    static final StoreSpec WINDOWS = StoreSpecs.window("windows", 10, Duration.ofMillis(5));
    static final StoreSpec SESSIONS = StoreSpecs.session("sessions", Duration.ofMillis(5));

    @RegisterExtension
    static final StoreFixture STORES = new StoreFixture();

    @TempDir
    Path dir;

    private final ChangelogHarness kafka = new ChangelogHarness();

    private TaskStore open(StoreSpec spec, BytesStore committed) {
        TaskStore store = new TaskStore(
                spec,
                committed,
                new TopicPartition("app-" + spec.name() + "-changelog", 0),
                1 << 20,
                System::currentTimeMillis);
        STORES.closeAfterTest(store::close);
        return store;
    }

    private TaskStore open(StoreSpec spec, Backend backend) {
        return open(spec, STORES.open(backend, dir, spec.name() + "-" + STORES.openedCount()));
    }

    @SuppressWarnings("unchecked")
    static WindowStore<String, Long> windows(TaskStore store) {
        return (WindowStore<String, Long>) store.typed();
    }

    @SuppressWarnings("unchecked")
    static SessionStore<String, Long> sessions(TaskStore store) {
        return (SessionStore<String, Long>) store.typed();
    }

    @ParameterizedTest
    @EnumSource(Backend.class)
    void aWindowIsDroppedOnceTheWatermarkReachesItsEndPlusRetention(Backend backend) {
        TaskStore store = open(WINDOWS, backend);
        WindowStore<String, Long> w = windows(store);
        w.put("a", -20, 1L); // end -10, expires at watermark -5
        w.put("a", 0, 2L); // end 10, expires at 15
        w.put("b", 0, 3L);
        w.put("a", 1, 4L); // end 11, expires at 16
        kafka.commit(store);

        store.dropExpired(-6);
        assertThat(drain(w.fetchAll(Long.MIN_VALUE, Long.MAX_VALUE))).hasSize(4);
        store.dropExpired(14);
        assertThat(drain(w.fetchAll(Long.MIN_VALUE, Long.MAX_VALUE)))
                .containsExactly("a@0..10=2", "b@0..10=3", "a@1..11=4");
        store.dropExpired(15); // exactly at start + size + retention: dropped, for every key
        assertThat(drain(w.fetchAll(Long.MIN_VALUE, Long.MAX_VALUE))).containsExactly("a@1..11=4");
        assertThat(w.fetch("a", 0)).isNull();
        store.dropExpired(16);
        assertThat(drain(w.fetchAll(Long.MIN_VALUE, Long.MAX_VALUE))).isEmpty();
        assertThat(store.committed().get(WindowKeys.key(1, "a".getBytes()))).isNull();
    }

    @ParameterizedTest
    @EnumSource(Backend.class)
    void aSessionIsDroppedOnceTheWatermarkReachesItsEndPlusRetentionWithItsIndexEntry(Backend backend) {
        TaskStore store = open(SESSIONS, backend);
        SessionStore<String, Long> s = sessions(store);
        s.put(new Windowed<>("a", 3, 10), 1L); // expires at 15
        s.put(new Windowed<>("b", 10, 10), 2L); // expires at 15
        s.put(new Windowed<>("a", 0, 11), 3L); // expires at 16
        s.put(new Windowed<>("ab", -9, -9), 4L); // expires at -4
        kafka.commit(store);

        store.dropExpired(14);
        assertThat(drain(s.fetchAll(Long.MIN_VALUE, Long.MAX_VALUE)))
                .containsExactly("a@3..10=1", "b@10..10=2", "a@0..11=3");
        store.dropExpired(15);
        assertThat(drain(s.fetchAll(Long.MIN_VALUE, Long.MAX_VALUE))).containsExactly("a@0..11=3");
        assertThat(drain(s.findSessions("a", Long.MIN_VALUE, Long.MAX_VALUE))).containsExactly("a@0..11=3");
        assertThat(drain(s.findSessions("b", Long.MIN_VALUE, Long.MAX_VALUE))).isEmpty();
        TypedSessionStoreTest.assertIndexMatchesPrimaries(store.committed(), 1);
        store.dropExpired(Long.MAX_VALUE);
        TypedSessionStoreTest.assertIndexMatchesPrimaries(store.committed(), 0);
    }

    @ParameterizedTest
    @EnumSource(Backend.class)
    void dropsAreLocalAndLeaveTheChangelogAndItsOffsetAlone(Backend backend) {
        TaskStore store = open(WINDOWS, backend);
        windows(store).put("a", 0, 1L);
        kafka.commit(store);
        int sent = kafka.producer.history().size();
        OptionalLong offset = store.committed().changelogOffset();

        store.dropExpired(1_000);
        kafka.commit(store); // nothing pending: nothing sent

        assertThat(windows(store).fetch("a", 0)).isNull();
        assertThat(kafka.producer.history()).hasSize(sent);
        assertThat(store.committed().changelogOffset()).isEqualTo(offset);
    }

    @Test
    void repeatedCallsWithNothingExpiredDoNotTouchTheStore() {
        CountingStore counting = new CountingStore(MemoryStore.create("windows"));
        TaskStore store = open(WINDOWS, counting);
        WindowStore<String, Long> w = windows(store);
        w.put("a", 100, 1L);
        kafka.commit(store);

        store.dropExpired(0); // reads the earliest start once
        int reads = counting.scans;
        for (long watermark = 1; watermark <= 114; watermark++) {
            store.dropExpired(watermark);
        }
        assertThat(counting.scans).isEqualTo(reads);
        assertThat(counting.deletes).isZero();

        w.put("b", 50, 2L); // an earlier window lowers the bound at once
        kafka.commit(store);
        store.dropExpired(65);
        assertThat(counting.deletes).isEqualTo(1);
        assertThat(w.fetch("b", 50)).isNull();
        assertThat(w.fetch("a", 100)).isEqualTo(1L);

        int scans = counting.scans;
        store.dropExpired(114);
        assertThat(counting.scans).isEqualTo(scans);
        store.dropExpired(115);
        assertThat(counting.deletes).isEqualTo(2);
        assertThat(w.fetch("a", 100)).isNull();
    }

    @Test
    void aWatermarkTooEarlyForAnythingToExpireIsHarmless() {
        TaskStore store = open(WINDOWS, Backend.MEMORY);
        windows(store).put("a", Long.MIN_VALUE, 1L);
        kafka.commit(store);
        store.dropExpired(Long.MIN_VALUE);
        store.dropExpired(Long.MIN_VALUE + 14);
        assertThat(windows(store).fetch("a", Long.MIN_VALUE)).isEqualTo(1L);
        store.dropExpired(Long.MIN_VALUE + 15);
        assertThat(windows(store).fetch("a", Long.MIN_VALUE)).isNull();
    }

    @Test
    void manyExpiredSessionsAreDroppedInChunks() {
        CountingStore counting = new CountingStore(MemoryStore.create("sessions"));
        TaskStore store = open(SESSIONS, counting);
        SessionStore<String, Long> s = sessions(store);
        int n = 2 * SessionExpiry.CHUNK + 7;
        for (int i = 0; i < n; i++) {
            s.put(new Windowed<>("k" + i, i, i), (long) i);
        }
        s.put(new Windowed<>("late", n, n + 100), -1L);
        kafka.commit(store);

        store.dropExpired(n + 5); // every session ending by n expired, "late" stays

        assertThat(counting.deletes).isEqualTo(3);
        assertThat(drain(s.fetchAll(Long.MIN_VALUE, Long.MAX_VALUE)))
                .containsExactly("late@" + n + ".." + (n + 100) + "=-1");
        TypedSessionStoreTest.assertIndexMatchesPrimaries(store.committed(), 1);
    }

    @Test
    void dropExpiredRefusesToRunWithPendingWrites() {
        StoreSpec inMemory = WINDOWS.withPersistent(false);
        TaskStores stores = TaskStores.open(
                List.of(inMemory),
                new TaskId(0, 0),
                dir,
                new TaskStores.Options(
                        "app", STORES.resources(), Duration.ofSeconds(10), 0, System::currentTimeMillis));
        try {
            @SuppressWarnings("unchecked")
            WindowStore<String, Long> w =
                    (WindowStore<String, Long>) stores.typedByName().get("windows");
            w.put("a", 0, 1L);
            assertThatThrownBy(() -> stores.dropExpired(1_000))
                    .isInstanceOf(IllegalStateException.class)
                    .hasMessageContaining("windows")
                    .hasMessageContaining("pending");
            stores.commit();
            stores.dropExpired(1_000);
            assertThat(w.fetch("a", 0)).isNull();
        } finally {
            stores.close();
        }
    }

    /** Counts scans and local deletes of a store. */
    static final class CountingStore implements BytesStore {
        final BytesStore delegate;
        int scans;
        int deletes;

        CountingStore(BytesStore delegate) {
            this.delegate = delegate;
        }

        @Override
        public String name() {
            return delegate.name();
        }

        @Override
        public void apply(WriteBatch changes, long changelogOffset) {
            delegate.apply(changes, changelogOffset);
        }

        @Override
        public void applyDeletes(WriteBatch batch) {
            deletes++;
            delegate.applyDeletes(batch);
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

        @Override
        public byte[] get(byte[] key) {
            return delegate.get(key);
        }

        @Override
        public BytesIterator range(byte[] from, byte[] to, boolean reverse) {
            scans++;
            return delegate.range(from, to, reverse);
        }

        @Override
        public BytesIterator prefix(byte[] prefix) {
            scans++;
            return delegate.prefix(prefix);
        }

        @Override
        public long approximateCount() {
            return delegate.approximateCount();
        }
    }
}
